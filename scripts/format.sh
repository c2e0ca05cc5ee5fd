#!/usr/bin/env bash
# Formats the tree: clang-format for C++, Prettier for JS/JSON/CSS/HTML/Markdown.
# scripts/format.sh --check only reports (exit 1 if anything is unformatted).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t cpp < <(git ls-files '*.cpp' '*.hpp')
if [[ "${1:-}" == "--check" ]]; then
  clang-format --dry-run --Werror "${cpp[@]}"
  npx prettier --check .
else
  clang-format -i "${cpp[@]}"
  npx prettier --write --log-level warn .
fi
