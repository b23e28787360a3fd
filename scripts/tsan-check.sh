#!/usr/bin/env bash
# Usage: scripts/tsan-check.sh <TSan build dir>
# Checks that ThreadSanitizer works here, with the build tree's compiler and the caller's
# TSAN_OPTIONS, and prints the prefix under which instrumented programs must run: nothing, or
# `setarch <arch> -R` where this TSan runtime cannot start with the kernel's address
# randomization ("FATAL: ThreadSanitizer: unexpected memory mapping", vm.mmap_rnd_bits > 28).
# A probe with a known data race must be reported and must exit non-zero, so that a broken
# sanitizer setup fails the test stage instead of passing it silently.
set -euo pipefail
build=$1
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
dir=$build/tsan-check
mkdir -p "$dir"
cat > "$dir/race.cc" <<'CC'
#include <thread>
int shared_value = 0;
int main() {
  std::thread other([] { ++shared_value; });
  ++shared_value;
  other.join();
  return 0;
}
CC
"$cxx" -fsanitize=thread -g -O1 "$dir/race.cc" -o "$dir/race" -pthread

# reported <log> [prefix...]: the race was found and the exit status says so.
reported() {
  local log=$dir/$1 rc=0
  shift
  "$@" "$dir/race" > "$log" 2>&1 || rc=$?
  [ "$rc" != 0 ] && grep -q "WARNING: ThreadSanitizer: data race" "$log"
}
if reported plain.log; then
  exit 0
fi
if command -v setarch >/dev/null && reported setarch.log setarch "$(uname -m)" -R; then
  echo "setarch $(uname -m) -R"
  exit 0
fi
{
  echo "tsan-check: ThreadSanitizer does not report a known race here; its output:"
  cat "$dir"/*.log
  echo "tsan-check: if it says 'unexpected memory mapping', try: sysctl vm.mmap_rnd_bits=28"
} >&2
exit 1
