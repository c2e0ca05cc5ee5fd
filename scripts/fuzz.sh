#!/usr/bin/env bash
# Builds the libFuzzer targets (preset "fuzz": clang, ASan + UBSan), runs the same build's
# sanitized unit tests, then each fuzz target on its seed corpus.
# Short run (npm test): scripts/fuzz.sh --seconds 10
# Long run:  scripts/fuzz.sh --seconds 3600 [target ...]   (findings land in build/fuzz/findings/)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=10
targets=()
while (($#)); do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done

cmake --preset fuzz >/dev/null  # seconds; applies preset changes
cmake --build --preset fuzz --target fuzzers sanitized_tests
# The same build's unit tests of the code that indexes memory by hand (tests/fuzz/CMakeLists.txt).
build/fuzz/bin/sanitized_tests --gtest_brief=1
if ((${#targets[@]} == 0)); then
  mapfile -t targets < <(find build/fuzz/bin -maxdepth 1 -name '*_fuzz' -type f -printf '%f\n' | sort)
fi
((${#targets[@]})) || { echo "no fuzz targets built" >&2; exit 1; }

mkdir -p build/fuzz/findings
# One target per core at a time; each prints its summary when it ends.
run_target() {
  local target=$1
  local corpus=tests/fuzz/corpus/${target%_fuzz}
  local work=build/fuzz/corpus/${target%_fuzz}   # grows across runs; the seed corpus stays untouched
  mkdir -p "$work"
  if ! "build/fuzz/bin/$target" -max_total_time="$seconds" -print_final_stats=1 \
      -artifact_prefix="build/fuzz/findings/$target-" "$work" "$corpus" 2>"build/fuzz/$target.log"; then
    echo "-- $target FAILED: see build/fuzz/$target.log and build/fuzz/findings/" >&2
    tail -n 30 "build/fuzz/$target.log" >&2
    return 1
  fi
  echo "-- $target (${seconds}s): $(grep -E 'stat::number_of_executed_units|Done' "build/fuzz/$target.log" | tr '\n' ' ')"
}

slots=$(nproc)
running=0
status=0
for target in "${targets[@]}"; do
  if ((running >= slots)); then
    wait -n || status=1
    running=$((running - 1))
  fi
  run_target "$target" &
  running=$((running + 1))
done
while ((running > 0)); do
  wait -n || status=1
  running=$((running - 1))
done
exit $status
