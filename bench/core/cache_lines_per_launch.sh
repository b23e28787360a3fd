#!/usr/bin/env bash
# Last-level cache read misses per launch on our launch path, counted by cachegrind while the
# bench writes 2 MiB of other memory between launches (as the application does between two
# real launches; bench/core/RESULTS.md, "Cache misses per launch").
#   bench/core/cache_lines_per_launch.sh BENCH CONFIG [LAUNCHES]
# BENCH: a Release (-g) build of proton_callback_path_bench; CONFIG: none, backend or a session
# label (shadow_tree, ...). Prints the launch-path functions' misses per launch and their sum.
set -euo pipefail
bench=$1 config=$2 n=${3:-3000}
command -v valgrind >/dev/null || { echo "cache_lines_per_launch.sh: valgrind not found" >&2; exit 1; }
out=$(mktemp /tmp/cachegrind.XXXXXX)
trap 'rm -f "$out"' EXIT
valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --I1=32768,8,64 --LL=1048576,16,64 \
  --cachegrind-out-file="$out" "$bench" "$n" 2097152 "$config" >/dev/null 2>&1
# Sessions run twice (the first pays one-time costs), each with 1,000 warm-up launches.
case $config in none|backend) launches=$((n + 1000)) ;; *) launches=$((2 * (n + 1000))) ;; esac
cg_annotate --show=DLmr --sort=DLmr "$out" 2>/dev/null | sed -n '/file:function/,/^$/p' |
  grep -E 'CaptureLaunch|OnLaunch|OnCallback|HandleKernelLaunch|NoteContext|NoteSubmitted|CallbackTrampoline|EmitLaunch|TakeSlot|Refresh|SessionManager::Get|Recording|LaunchNode|Ring\(|strlen|memcmp|__tls_get_addr' |
  sed -E 's/\(anonymous namespace\)/anon/g; s/^ *([0-9,]+) \([ 0-9.%]+\) +[^:]*:([^(]*).*/\1 \2/' |
  awk -v n="$launches" '{gsub(",", "", $1); total += $1; printf "%6.2f  %s\n", $1 / n, $2}
       END {printf "%6.2f  total per launch (%d launches)\n", total / n, n}'
