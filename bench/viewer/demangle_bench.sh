#!/usr/bin/env bash
# --demangle and --match=normalized on hostile and real C++ names (viewer.md §11.9): best wall
# time, CPU time (user + system) and peak RSS of proton-viewer per case, next to the same
# file without demangling. Results: bench/viewer/RESULTS.md ("Demangling").
#   bench/viewer/demangle_bench.sh [VIEWER] [DATA_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
viewer="${1:-build/bin/proton-viewer}"
data="${2:-/tmp/proton-demangle-bench}"
gen="python3 $here/gen_demangle.py"
measure="python3 $here/measure.py"
mkdir -p "$data"
[ -x "$viewer" ] || { echo "no viewer binary at $viewer" >&2; exit 1; }
for bytes in 212 250 2000; do
  [ -s "$data/doubling$bytes.hatchet" ] || $gen doubling "$bytes" "$data/doubling$bytes.hatchet"
done
[ -s "$data/hostile10k.hatchet" ] || $gen hostile 10000 250 "$data/hostile10k.hatchet"
[ -s "$data/leafy10k.hatchet" ] || $gen leafy 10000 180 "$data/leafy10k.hatchet"
[ -s "$data/real10k.hatchet" ] || $gen real 10000 "$data/real10k.hatchet"

printf '%-44s %9s %9s %8s\n' case "wall s" "CPU s" "MiB"
row() {  # label, viewer args...
  local label="$1"; shift
  read -r wall mib cpu < <($measure --repeat=5 "$viewer" "$@")
  printf '%-44s %9s %9s %8s\n' "$label" "$wall" "$cpu" "$mib"
}
for bytes in 212 250 2000; do
  row "${bytes}-byte doubling name --demangle" -m time/ns --demangle "$data/doubling$bytes.hatchet"
done
for f in hostile10k leafy10k real10k; do
  row "$f (no demangling)" -m time/ns "$data/$f.hatchet"
  row "$f --demangle" -m time/ns --demangle "$data/$f.hatchet"
  row "$f --demangle=short" -m time/ns --demangle=short "$data/$f.hatchet"
  row "$f --match=normalized --diff-profile (itself)" -m time/ns --match=normalized \
    --diff-profile "$data/$f.hatchet" "$data/$f.hatchet"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
