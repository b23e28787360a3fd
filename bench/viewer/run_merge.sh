#!/usr/bin/env bash
# --merge benchmark (spec viewer.md §11.11): RANKS rank files of 20,000 nodes (MessagePack, as
# gen_ranks.py writes them), merged with --merge=stats and --merge=sum, next to the sum of
# reading each file alone (one proton-viewer run per file) and to one file's peak memory.
#   bench/viewer/run_merge.sh [VIEWER] [DATA_DIR] [RANKS]
# VIEWER defaults to build/bin/proton-viewer; DATA_DIR (default /tmp/proton-merge-bench)
# receives the files (about 3 GB for 1,024 ranks; reused when present).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
viewer="${1:-build/bin/proton-viewer}"
data="${2:-/tmp/proton-merge-bench}"
ranks="${3:-1024}"
measure="python3 $here/measure.py"
[ -x "$viewer" ] || { echo "no viewer binary at $viewer" >&2; exit 1; }
dir="$data/ranks$ranks"
last=$(printf '%s/run.rank%04d.hatchet_msgpack' "$dir" $((ranks - 1)))
[ -s "$last" ] || python3 "$here/gen_ranks.py" --ranks "$ranks" "$dir"
files=("$dir"/run.rank*.hatchet_msgpack)
cat "${files[@]}" > /dev/null  # page cache warm for every row alike

printf '%-44s %8s %8s %8s\n' case "wall s" "CPU s" "peak MiB"
row() {  # label, command...
  local label="$1"; shift
  read -r t m c < <($measure "$@")
  printf '%-44s %8s %8s %8s\n' "$label" "$t" "$c" "$m"
}
row "one file -m time/ns" "$viewer" -m time/ns "${files[0]}"
# Every file read alone, one after another: wall and CPU are the sums, memory the largest.
row "$ranks files one by one -m time/ns (sum)" bash -c \
  'v="$1"; shift; for f in "$@"; do "$v" -m time/ns "$f" > /dev/null; done' _ "$viewer" "${files[@]}"
row "--merge=stats -m time/ns" "$viewer" --merge=stats -m time/ns "${files[@]}"
row "--merge=stats -m time/ns,count" "$viewer" --merge=stats -m time/ns,count "${files[@]}"
row "--merge=sum -m time/ns" "$viewer" --merge=sum -m time/ns "${files[@]}"
# All 20,000 frames x 1,024 files would be about 6 GB of rows: -d 3 keeps the top levels.
row "--merge=stats -m time/ns -d 3 --export .jsonl" "$viewer" --merge -m time/ns -d 3 \
  --export "$data/merge.jsonl" "${files[@]}"
echo "union: $("$viewer" --merge=sum -m count "${files[@]}" | wc -l) frames printed;" \
  "one file: $("$viewer" -m count "${files[0]}" | wc -l); export: $(du -m "$data/merge.jsonl" | cut -f1) MiB"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -f "$data/merge.jsonl"
