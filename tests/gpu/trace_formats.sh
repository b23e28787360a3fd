#!/usr/bin/env bash
# Traces of real GPU runs in both formats (formats.md §6, §7), for
# tests/gpu/trace_formats_check.py: each workload profiled three times under `proton` (tree,
# .chrome_trace, .perfetto_trace), a periodic-flushing run with protobuf parts, and two
# processes run at the same time (two "ranks") in both formats, for the merge.
#   OUT=/tmp/tf BUILD=build-gpu tests/gpu/trace_formats.sh
# Needs an NVIDIA GPU and python3 with PyTorch and Triton; writes only under $OUT.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build-gpu}
OUT=${OUT:-/tmp/trace-formats}
P=$BUILD/bin/proton
mkdir -p "$OUT"
cd "$ROOT/tests/gpu/workloads"
status=0
run() {  # run LOG -- command...
  local log=$1; shift
  if ! timeout -k 10 240 "$@" > "$OUT/$log.log" 2>&1; then
    echo "FAILED ($?): $*"; tail -5 "$OUT/$log.log"; status=1
  fi
}
for wl in "workload 20" "phases 6"; do
  set -- $wl
  script=$1.py; args=$2; [ "$1" = phases ] && args="flat $2"
  run "$1_tree" "$P" -n "$OUT/$1_tree" $script $args
  run "$1_json" "$P" -d trace -n "$OUT/$1_json" $script $args
  run "$1_pb" "$P" -d trace -f perfetto_trace -n "$OUT/$1_pb" $script $args
done
run phased "$P" -d trace -m periodic_flushing:format=perfetto_trace -n "$OUT/phased" phases.py phased 4
for fmt in perfetto_trace chrome_trace; do
  "$P" -d trace -f $fmt -n "$OUT/rank0" workload.py 300 > "$OUT/rank0_$fmt.log" 2>&1 &
  a=$!
  "$P" -d trace -f $fmt -n "$OUT/rank1" workload.py 300 > "$OUT/rank1_$fmt.log" 2>&1 &
  b=$!
  wait $a || status=1
  wait $b || status=1
done
ls -l "$OUT"
exit $status
