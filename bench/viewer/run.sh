#!/usr/bin/env bash
# Viewer benchmark (spec viewer.md §11.5): wall time and peak memory of proton-viewer next to
# python3 json.load on the same file, in the same run, and their ratios.
#   bench/viewer/run.sh [VIEWER] [DATA_DIR]
# VIEWER defaults to build/bin/proton-viewer; DATA_DIR (default /tmp/proton-viewer-bench)
# receives the generated profiles (about 3 GB; reused when present).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
viewer="${1:-build/bin/proton-viewer}"
data="${2:-/tmp/proton-viewer-bench}"
gen="python3 $here/gen_profile.py"
measure="python3 $here/measure.py"
mkdir -p "$data"
[ -x "$viewer" ] || { echo "no viewer binary at $viewer" >&2; exit 1; }

make_file() {  # name, generator args...
  local f="$data/$1"; shift
  [ -s "$f" ] || $gen "$@" "$f"
}
make_file p1k.hatchet --nodes 1000
make_file p20k.hatchet --nodes 20000
make_file p1m.hatchet --nodes 1000000
make_file p1m_b.hatchet --nodes 1000000 --seed 2
make_file p1m.hatchet_msgpack --nodes 1000000 --format msgpack
make_file chain100k.hatchet --chain 100000
make_file chain100k.hatchet_msgpack --chain 100000 --format msgpack

mb() { python3 -c "import os,sys; print('%.1f' % (os.path.getsize(sys.argv[1]) / 2**20))" "$1"; }
printf '%-34s %8s %8s %8s %8s %9s %9s %8s %7s %7s %9s\n' case "file MiB" "wall s" "CPU s" "MiB" "json wall" "json CPU" "json MiB" "ratio" "CPUratio" "peak/file"
declare -A jcache
row() {  # label, file for json.load, repeat, viewer args...
  local label="$1" jfile="$2" rep="$3"; shift 3
  read -r vt vm vc < <($measure --repeat="$rep" "$viewer" "$@")
  local jt="-" jm="-" jc="-" ratio="-" cratio="-"
  if [ -n "$jfile" ]; then
    # json.load of a 1 GB file takes minutes on a loaded machine: measured once per file.
    if [ -z "${jcache[$jfile]:-}" ]; then
      jcache[$jfile]=$($measure --repeat="$rep" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$jfile")
    fi
    read -r jt jm jc <<< "${jcache[$jfile]}"
    ratio=$(python3 -c "print('%.4f' % ($vt / $jt))")
    cratio=$(python3 -c "print('%.4f' % ($vc / $jc))")
  fi
  local fsize; fsize=$(mb "${@: -1}")
  local pf; pf=$(python3 -c "print('%.2f' % ($vm / max($fsize, 1e-9)))")
  printf '%-34s %8s %8s %8s %8s %9s %9s %8s %7s %7s %9s\n' "$label" "$fsize" "$vt" "$vc" "$vm" "$jt" "$jc" "$jm" "$ratio" "$cratio" "$pf"
}
row "1k nodes -m time/ms,time/%" "$data/p1k.hatchet" 5 -m time/ms,time/% "$data/p1k.hatchet"
row "20k nodes -m time/ms,time/%" "$data/p20k.hatchet" 20 -m time/ms,time/% "$data/p20k.hatchet"
row "1M nodes -m time/ms,time/%" "$data/p1m.hatchet" 1 -m time/ms,time/% "$data/p1m.hatchet"
row "1M msgpack -m time/ms" "$data/p1m.hatchet" 1 -m time/ms "$data/p1m.hatchet_msgpack"
row "1M diff -m time/ms --diff-profile" "$data/p1m.hatchet" 1 -m time/ms --diff-profile "$data/p1m_b.hatchet" "$data/p1m.hatchet"
row "100k chain -m time/ns" "" 3 -m time/ns "$data/chain100k.hatchet"
row "100k chain msgpack -m time/ns" "" 3 -m time/ns "$data/chain100k.hatchet_msgpack"
echo "ratio = viewer wall / json.load wall, CPUratio = viewer CPU / json.load CPU (user+sys), of the"
echo "JSON file named in the row (diff: one json.load); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
