#!/usr/bin/env bash
# Every C++ and CUDA source of the project matches .clang-format: any difference is printed and
# fails (exit 1). Skipped (exit 77) without clang-format. The tree is formatted with Debian 12's
# clang-format 14; another version may wrap a few lines differently (CONTRIBUTING.md).
#   scripts/check_format.sh [ROOT]        check
#   scripts/check_format.sh --fix [ROOT]  rewrite the files that differ
set -euo pipefail
mode=(--dry-run --Werror)
if [ "${1:-}" = --fix ]; then mode=(-i); shift; fi
cd "${1:-$(dirname "$0")/..}"
if ! command -v clang-format >/dev/null; then
  echo "clang-format not found: format check skipped"
  exit 77
fi
mapfile -t files < <(find src tests bench tools include examples python -type f \
  \( -name '*.cc' -o -name '*.h' -o -name '*.cu' -o -name '*.c' -o -name '*.cpp' \) | sort)
clang-format "${mode[@]}" "${files[@]}"
echo "${#files[@]} files match .clang-format"
