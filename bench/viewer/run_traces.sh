#!/usr/bin/env bash
# --export OUT.perfetto_trace benchmark (spec viewer.md §11.17): RANKS rank traces of EVENTS
# kernels each (gen_traces.cc: our .chrome_trace layout, and the same job as .perfetto_trace),
# merged into one Perfetto trace. Goal: 8 traces of 1M kernels in under 10 s, peak RSS under
# twice one input file; --trace-report on one 1M-kernel trace in under 2 s. measure.py gives wall, CPU and the child's peak RSS.
#   [REPEAT=3] bench/viewer/run_traces.sh [VIEWER] [GENERATOR] [DATA_DIR] [RANKS] [EVENTS]
# REPEAT runs each row that many times and keeps the best wall and CPU time (the shared machine
# makes single runs noisy).
# DATA_DIR (default /dev/shm/proton-trace-bench: memory, so that the disk's write speed does
# not decide the numbers) receives about 3.8 GB of JSON and 1.7 GB of Perfetto inputs for 8 x
# 1M (reused when present) and the outputs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
viewer="${1:-build/bin/proton-viewer}"
gen="${2:-build/bin/proton_viewer_gen_traces}"
data="${3:-/dev/shm/proton-trace-bench}"
ranks="${4:-8}"
events="${5:-1000000}"
measure="python3 $here/measure.py"
for b in "$viewer" "$gen"; do [ -x "$b" ] || { echo "no binary at $b" >&2; exit 1; }; done
json="$data/json$ranks-$events"
pb="$data/perfetto$ranks-$events"
mkdir -p "$json" "$pb"
last=$((ranks - 1))
[ -s "$json/run.rank$last.chrome_trace" ] || "$gen" --events "$events" "$ranks" "$json"
[ -s "$pb/run.rank$last.perfetto_trace" ] || "$gen" --format perfetto --events "$events" "$ranks" "$pb"
cat "$json"/* "$pb"/* > /dev/null  # in the page cache for every row alike
one=$(stat -c %s "$json/run.rank0.chrome_trace")
printf 'inputs: %s x %s MiB JSON, %s x %s MiB Perfetto\n' "$ranks" $((one >> 20)) "$ranks" \
  $(($(stat -c %s "$pb/run.rank0.perfetto_trace") >> 20))
printf '%-46s %8s %8s %9s %10s\n' case "wall s" "CPU s" "peak MiB" "peak/input"
row() {  # label, input size in bytes, command... (best of REPEAT runs)
  local label="$1" size="$2"; shift 2
  read -r t m c < <($measure --repeat="${REPEAT:-1}" "$@")
  printf '%-46s %8s %8s %9s %10.2f\n' "$label" "$t" "$c" "$m" "$(echo "$m * 1048576 / $size" | bc -l)"
}
out="$data/out.perfetto_trace"
row "1 JSON trace converted" "$one" "$viewer" --export "$out" "$json/run.rank0.chrome_trace"
row "$ranks JSON traces merged" "$one" "$viewer" --export "$out" "$json"/run.rank*.chrome_trace
echo "  output: $(($(stat -c %s "$out") >> 20)) MiB"
pbone=$(stat -c %s "$pb/run.rank0.perfetto_trace")
row "$ranks Perfetto traces merged" "$pbone" "$viewer" --export "$out" "$pb"/run.rank*.perfetto_trace
half=$((ranks / 2))
mixed=("$json"/run.rank*.chrome_trace)
mixed=("${mixed[@]:0:$half}")
for r in $(seq "$half" $last); do mixed+=("$pb/run.rank$r.perfetto_trace"); done
row "$half JSON + $((ranks - half)) Perfetto merged" "$one" "$viewer" --export "$out" "${mixed[@]}"
# The writer without the file system: the output written in place to /dev/null.
ln -sf /dev/null "$data/null.perfetto_trace"
row "$ranks JSON traces merged, output /dev/null" "$one" "$viewer" --export \
  "$data/null.perfetto_trace" "$json"/run.rank*.chrome_trace
# --trace-report (viewer.md §11.18) on one input of EVENTS kernels. Goal: 1M in under 2 s.
row "--trace-report, 1 JSON trace" "$one" "$viewer" --trace-report "$json/run.rank0.chrome_trace"
row "--trace-report, 1 Perfetto trace" "$pbone" "$viewer" --trace-report "$pb/run.rank0.perfetto_trace"
rm -f "$out"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
