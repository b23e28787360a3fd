#!/usr/bin/env bash
# SQLite outputs benchmark (spec viewer.md §11.13): --export FILE.sqlite of a 1,000,000-node
# profile and of RANKS rank files of 20,000 nodes, --sql on a 20,000-node profile end to end,
# with reading alone (-m count -d 0, --merge=sum) as the yardstick, and peak memory at a
# quarter of the ranks to show that it follows the union, not the number of files.
#   bench/viewer/run_sqlite.sh [VIEWER] [DATA_DIR] [MERGE_DIR] [RANKS]
# VIEWER defaults to build/bin/proton-viewer; DATA_DIR (default /tmp/proton-viewer-bench, as
# run.sh) holds p20k.hatchet and p1m.hatchet, MERGE_DIR (default /tmp/proton-merge-bench, as
# run_merge.sh) the rank files; both are generated when missing and reused otherwise. The
# databases are written to DATA_DIR and removed at the end.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
viewer="${1:-build/bin/proton-viewer}"
data="${2:-/tmp/proton-viewer-bench}"
merge_data="${3:-/tmp/proton-merge-bench}"
ranks="${4:-1024}"
measure="python3 $here/measure.py"
[ -x "$viewer" ] || { echo "no viewer binary at $viewer" >&2; exit 1; }
mkdir -p "$data"
[ -s "$data/p20k.hatchet" ] || python3 "$here/gen_profile.py" --nodes 20000 "$data/p20k.hatchet"
[ -s "$data/p1m.hatchet" ] || python3 "$here/gen_profile.py" --nodes 1000000 "$data/p1m.hatchet"
dir="$merge_data/ranks$ranks"
last=$(printf '%s/run.rank%04d.hatchet_msgpack' "$dir" $((ranks - 1)))
[ -s "$last" ] || python3 "$here/gen_ranks.py" --ranks "$ranks" "$dir"
files=("$dir"/run.rank*.hatchet_msgpack)
quarter=("${files[@]:0:$((ranks / 4))}")
cat "$data/p20k.hatchet" "$data/p1m.hatchet" "${files[@]}" > /dev/null  # page cache warm
db="$data/bench.sqlite"

printf '%-52s %8s %8s %8s\n' case "wall s" "CPU s" "peak MiB"
row() {  # label, repeat, command...
  local label="$1" rep="$2"; shift 2
  read -r t m c < <($measure --repeat="$rep" "$@")
  printf '%-52s %8s %8s %8s\n' "$label" "$t" "$c" "$m"
}
row "1M nodes: read only (-m count -d 0)" 3 "$viewer" -m count -d 0 "$data/p1m.hatchet"
row "1M nodes: --export .sqlite" 3 "$viewer" --export "$db" "$data/p1m.hatchet"
echo "  database: $(du -m "$db" | cut -f1) MiB"
row "20k nodes: -m time/ms" 5 "$viewer" -m time/ms "$data/p20k.hatchet"
row "20k nodes: --sql top_kernels" 5 "$viewer" --sql top_kernels "$data/p20k.hatchet"
row "20k nodes: --sql 'SELECT ... LIMIT 20' (top 20 frames)" 5 "$viewer" --sql \
  'SELECT name, "time (ns)" FROM frame_rows ORDER BY "time (ns)" DESC LIMIT 20' \
  "$data/p20k.hatchet"
row "$ranks files: --merge=sum -m time/ns (reading)" 1 "$viewer" --merge=sum -m time/ns "${files[@]}"
row "$ranks files: --export .sqlite" 1 "$viewer" --export "$db" "${files[@]}"
echo "  database: $(du -m "$db" | cut -f1) MiB, $(python3 -c "import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
print('%d frames, %d rows of frame_values' % (con.execute('SELECT count(*) FROM frames').fetchone()[0],
      con.execute('SELECT count(*) FROM frame_values').fetchone()[0]))" "$db")"
row "$((ranks / 4)) files: --export .sqlite" 1 "$viewer" --export "$db" "${quarter[@]}"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$db"
