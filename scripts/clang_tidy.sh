#!/usr/bin/env bash
# clang-tidy (.clang-tidy at the root) over src/'s sources, from the compile_commands.json of a
# configured build tree (a clang one: the flags are clang's). Every finding fails (exit 1).
# Unit tests (*_test.cc), test doubles and helpers included. The headers under src/ are
# checked where those sources include them.
#   scripts/clang_tidy.sh BUILD_DIR [REGEX]   REGEX: only the sources whose path matches
set -euo pipefail
build=${1:?usage: scripts/clang_tidy.sh BUILD_DIR [REGEX]}
only=${2:-}
if ! command -v run-clang-tidy >/dev/null || ! command -v clang-tidy >/dev/null; then
  echo "clang-tidy: run-clang-tidy or clang-tidy not found (scripts/install-deps.sh)" >&2
  exit 1
fi
# compile_commands.json names sources by absolute path under the tree's source directory.
source_dir=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
prefix=$(python3 -c 'import re, sys; print(re.escape(sys.argv[1]))' "$source_dir")
regex="^$prefix/src/"
if [ -n "$only" ]; then regex="$regex(?=.*($only))"; fi
run-clang-tidy -p "$build" -quiet -j "$(nproc)" "$regex"
