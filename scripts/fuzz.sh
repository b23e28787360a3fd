#!/usr/bin/env bash
# Runs libFuzzer targets (built with -DPROTON_FUZZ=ON) in fork mode, each on a scratch copy of
# its corpus, until it has run EXECS executions (default 10.5 million) or SECONDS have passed,
# and prints each target's last status line (`#N` = executions so far, over all its jobs).
# Crashing inputs land in OUT (default .) as crash-<target>-<sha1>: fix the code, then add the
# input to tests/fuzz/corpus/<target>/ so that the replay test keeps it fixed.
#   scripts/fuzz.sh BIN_DIR SECONDS TARGET:FORKS [TARGET:FORKS ...]
#   e.g. scripts/fuzz.sh build-fuzz/bin 600 filter:10 json_reader:3 msgpack_reader:3
set -uo pipefail
if [ $# -lt 3 ]; then
  echo "usage: scripts/fuzz.sh BIN_DIR SECONDS TARGET:FORKS [TARGET:FORKS ...]" >&2
  exit 2
fi
bin=$(cd "$1" && pwd); limit=$2; shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$PWD}; target_execs=${EXECS:-10500000}
scratch=$(mktemp -d /tmp/proton-fuzz.XXXXXX)
executions() { grep -ao '^#[0-9]*' "$out/$1.log" 2>/dev/null | tail -1 | tr -d '#'; }
declare -A pid
for spec in "$@"; do
  t=${spec%%:*}; forks=${spec##*:}
  mkdir -p "$scratch/$t" && cp "$root/tests/fuzz/corpus/$t/"* "$scratch/$t/"
  "$bin/${t}_fuzz" -fork="$forks" -ignore_crashes=1 -timeout=10 -max_total_time="$limit" \
    -artifact_prefix="$out/crash-$t-" "$scratch/$t" > "$out/$t.log" 2>&1 &
  pid[$t]=$!
done
deadline=$((SECONDS + limit + 20))
while [ ${#pid[@]} -gt 0 ] && [ $SECONDS -lt $deadline ]; do
  sleep 3
  for t in "${!pid[@]}"; do
    if ! kill -0 "${pid[$t]}" 2>/dev/null; then unset "pid[$t]"; continue; fi
    n=$(executions "$t")
    # SIGINT makes libFuzzer's fork-mode parent stop its jobs and print its final line.
    if [ "${n:-0}" -ge "$target_execs" ]; then kill -INT "${pid[$t]}"; unset "pid[$t]"; fi
  done
done
for t in "${!pid[@]}"; do kill -INT "${pid[$t]}" 2>/dev/null; done
wait
status=0
for spec in "$@"; do
  t=${spec%%:*}
  crashes=$(find "$out" -maxdepth 1 -name "crash-$t-*" | wc -l)
  echo "$t: $(grep -a '^#[0-9]*' "$out/$t.log" | tail -1); crashing inputs: $crashes"
  [ "$crashes" = 0 ] || status=1
done
rm -rf "$scratch"
exit $status
