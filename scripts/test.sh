#!/usr/bin/env bash
# Runs every layer of tests (after scripts/setup.sh --all has built everything):
#   1. native C++ suites and the validation suite against whole-mesh references (ctest, native
#      release build)   2. the core C++ suites compiled to wasm (threaded build), under Node; the
#      single-threaded module is exercised by Vitest   3. the page's production build (vite
#      build), which the browser tests serve   4. Vitest: the wasm module under Node and the page
#      in headless Chromium (Vitest + Playwright)   5. the sanitizers (clang ASan + UBSan): the
#      unit tests of the hand-indexed kernels and a short fuzzing run of every reader   6. the
#      tree is formatted (clang-format, Prettier)
# Ends with one line "N passed, N failed" counting the layers.
set -uo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs

passed=0
failed=0
failures=()
layer() {
  local name=$1
  shift
  printf '\n\033[1m== %s ==\033[0m\n' "$name"
  local start=$SECONDS
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$name")
  fi
  # CI's time limit is for the whole run: each layer's share shows where it goes.
  printf '== %s: %d s\n' "$name" $((SECONDS - start))
}

layer "native C++ suites and the validation suite (ctest, native release)" ctest --preset native -j2
layer "core C++ tests in wasm, threaded (ctest, Node)" ctest --preset wasm-threads -j2
layer "production build of the page (vite build)" npx vite build --config web/vite.config.js --logLevel warn
layer "wasm module and page (vitest: Node and headless Chromium)" npx vitest run --config tests/vitest.config.js
layer "sanitizers: the kernels' unit tests and a short fuzzing run (clang ASan + UBSan)" bash scripts/fuzz.sh --seconds "${SMFEM_FUZZ_SECONDS:-10}"
layer "formatting (clang-format, Prettier; fix with npm run format)" bash scripts/format.sh --check

echo
((failed)) && printf 'failed layer: %s\n' "${failures[@]}"
echo "$passed passed, $failed failed"
((failed == 0))
