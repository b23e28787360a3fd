#!/usr/bin/env bash
# --follow benchmark (spec viewer.md §11.14): a refresh of the live view when every one of
# RANKS ranks has written a 20,000-node part of a phase. The folder holds PHASES complete
# phases and the ranks' end markers, so `proton-viewer --follow` reads every part, prints a
# block per phase and ends: its wall time is the start plus PHASES refreshes of RANKS parts
# each (and one listing more). MessagePack parts come from gen_ranks.py (each rank its own
# kernel times and a few renamed kernels), compact-JSON parts (periodic flushing's default)
# are one gen_profile.py tree hard-linked RANKS times.
#   bench/viewer/run_follow.sh [VIEWER] [DATA_DIR] [RANKS]
# VIEWER defaults to build/bin/proton-viewer; DATA_DIR (default /tmp/proton-follow-bench)
# receives the files (about 200 MB; reused when present).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
viewer="${1:-build/bin/proton-viewer}"
data="${2:-/tmp/proton-follow-bench}"
ranks="${3:-64}"
measure="python3 $here/measure.py --repeat=3"
[ -x "$viewer" ] || { echo "no viewer binary at $viewer" >&2; exit 1; }
src="$data/src$ranks"
last=$(printf '%s/run.rank%04d.hatchet_msgpack' "$src" $((ranks - 1)))
[ -s "$last" ] || python3 "$here/gen_ranks.py" --ranks "$ranks" "$src"
[ -s "$data/compact.hatchet" ] || {
  python3 "$here/gen_profile.py" --nodes 20000 --layout current "$data/pretty.hatchet"
  python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], "w"),
                separators=(",", ":"), sort_keys=True)' "$data/pretty.hatchet" "$data/compact.hatchet"
}

# A run folder of `phases` phases in `format`: each part a hard link to its source.
make_run() {  # name, format (msgpack|json), phases
  local dir="$data/$1"
  rm -rf "$dir" && mkdir -p "$dir"
  for ((r = 0; r < ranks; r++)); do
    local rank; rank=$(printf 'run.rank%04d' "$r")
    for ((p = 0; p < $3; p++)); do
      if [ "$2" = msgpack ]; then
        ln "$src/$rank.hatchet_msgpack" "$dir/$rank.part_$p.hatchet_msgpack"
      else
        ln "$data/compact.hatchet" "$dir/$rank.part_$p.hatchet"
      fi
    done
    echo '{"parts":'"$3"'}' > "$dir/$rank.done"
  done
  echo "$dir"
}

printf '%-52s %8s %8s %8s\n' case "wall s" "CPU s" "peak MiB"
row() {  # label, command...
  local label="$1"; shift
  read -r t m c < <($measure "$@")
  printf '%-52s %8s %8s %8s\n' "$label" "$t" "$c" "$m"
}
for format in msgpack json; do
  for phases in 1 4; do
    dir=$(make_run "$format$phases" "$format" "$phases")
    cat "$dir"/* > /dev/null  # page cache warm
    row "$ranks ranks x $phases phase(s), $format parts" "$viewer" --follow "$dir/run.rank*"
  done
done
row "one msgpack part alone -m time/ms" "$viewer" -m time/ms "$src/run.rank0000.hatchet_msgpack"
row "one compact JSON part alone -m time/ms" "$viewer" -m time/ms "$data/compact.hatchet"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) processors"
