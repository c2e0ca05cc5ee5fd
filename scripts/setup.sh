#!/usr/bin/env bash
# Sets up everything `npm start`, `npm test` and `npm run build` need, on a fresh Debian 12
# machine or an existing one, and reuses whatever is already done:
#   1. Debian packages (apt, when root), 2. npm packages (npm ci), 3. native and wasm builds
#   (CMake presets; Ninja rebuilds only what changed), which also bake the default assets.
# Usage: scripts/setup.sh [--all]
#   (no option)  what the page needs: the bake tool, the baked assets and the two wasm modules
#   --all        every target of the native and wasm-threads presets: the native tools,
#                benchmarks and tests, the wasm tests and the Node tools module (npm test; its
#                sanitizer build is scripts/fuzz.sh's); of wasm-single still only the page's two
#                modules (the page's fallback: Node's tools run threaded)
set -euo pipefail
cd "$(dirname "$0")/.."

scope=page
case "${1:-}" in
  "") ;;
  --all) scope=all ;;
  *)
    echo "[setup] unknown option $1 (use --all)" >&2
    exit 2
    ;;
esac
say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

# --- 1. Debian packages --------------------------------------------------------------------
packages=(cmake ninja-build ccache g++ clang libclang-rt-14-dev clang-format emscripten
          libeigen3-dev libspectra-dev libfast-float-dev libmeshoptimizer-dev nlohmann-json3-dev
          googletest libgtest-dev chromium ffmpeg)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    say "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends "${missing[@]}"
  else
    echo "[setup] missing Debian packages: ${missing[*]}" >&2
    echo "[setup] install them by hand: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi

# --- 2. npm packages -------------------------------------------------------------------------
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  say "installing npm packages (npm ci)"
  npm ci --no-audit --no-fund
fi

# --- 3. builds -------------------------------------------------------------------------------
export NODE_PATH=/usr/share/nodejs  # Debian's em++ finds acorn there
# build_preset SCOPE PRESET PAGE_TARGET...: only the targets the page needs, unless SCOPE is all.
build_preset() {
  local preset=$2
  local only=()
  [[ $1 == page ]] && only=(--target "${@:3}")
  shift 2
  # Configuring again takes seconds and applies preset changes to an existing build folder.
  say "configuring $preset"
  cmake --preset "$preset" >/dev/null
  say "building $preset${only[*]:+ (only $*)}"
  cmake --build --preset "$preset" "${only[@]}"
}
build_preset "$scope" native assets
build_preset "$scope" wasm-threads smfem_module smfem_bake_module
build_preset page wasm-single smfem_module smfem_bake_module
say "ready"
