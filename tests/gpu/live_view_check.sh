#!/usr/bin/env bash
# GPU proof of the live view (proton-viewer --follow, viewer.md §11.14) and of --stragglers
# (§11.15) on a real periodic-flushing torch run: two ranks under torchrun on the one GPU
# (tests/gpu/workloads/live.py: rank 1 does twice the matmuls in steps 3-9), profiled by our
# `proton -m periodic_flushing`, while two `proton-viewer --follow` watch the parts appear: one
# in a pipe (each line timestamped) and one in a terminal captured with script(1). Prints one
# "CHECK <name> PASS|FAIL <details>" line per claim and leaves at most 8 files under $OUT:
# checks.txt, run.log, follow_pipe.log (+ .err), follow_tty.typescript, stragglers.txt,
# live_run.tar.gz (the parts and each part's total) and build.log when it built. Exit status 0
# when every check passed.
#
#   OUT=/tmp/out VIEWER=/path/to/proton-viewer tests/gpu/live_view_check.sh
#
# Needs: an NVIDIA GPU, python3 with PyTorch (torchrun) and Triton, CMake and a C++ compiler
# for the profiler (built into $BUILD as tests/gpu/run.sh builds it, unless $BUILD/bin/proton
# exists or SKIP_BUILD=1), and a proton-viewer binary. The GPU image lacks the viewer's Debian
# libraries (simdjson, PCRE2), so build it on the Debian machine and bring it with them:
#   tests/gpu/live_view_check.sh --bundle DIR   # copies build/bin/proton-viewer and its
#                                               # non-system libraries into DIR
# then VIEWER=DIR/proton-viewer here (DIR goes first on LD_LIBRARY_PATH).
#   STEPS (default 12), PAUSE_S (default 0.4): the run's steps and the pause after each one.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

if [ "${1:-}" = --bundle ]; then
  dir=${2:?usage: live_view_check.sh --bundle DIR}
  viewer=${VIEWER:-$ROOT/build/bin/proton-viewer}
  mkdir -p "$dir" && cp "$viewer" "$dir/proton-viewer" || exit 1
  ldd "$viewer" | awk '/=> \// {print $3}' | grep -E 'libsimdjson|libpcre2|libsqlite3' |
    while read -r lib; do cp -L "$lib" "$dir/"; done
  ls -la "$dir"
  exit 0
fi

BUILD=${BUILD:-$ROOT/build-gpu}
OUT=${OUT:-$BUILD/live-out}
VIEWER=${VIEWER:-$ROOT/build/bin/proton-viewer}
STEPS=${STEPS:-12}
PAUSE_S=${PAUSE_S:-0.4}
WORK=${WORK:-$(mktemp -d /tmp/proton-live.XXXXXX)}
PY=$(command -v python3)
W=$ROOT/tests/gpu/workloads
export PYTHONUNBUFFERED=1 PROTON_PYTHON=$PY
export LD_LIBRARY_PATH="$(cd "$(dirname "$VIEWER")" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mkdir -p "$OUT" "$WORK/run"
log() { echo "[live_view_check $(date +%H:%M:%S)] $*"; }

if ! "$VIEWER" -h > /dev/null 2> "$WORK/viewer_start.err"; then
  echo "CHECK live_viewer FAIL cannot run $VIEWER: $(head -2 "$WORK/viewer_start.err" | tr '\n' ' ')"
  exit 1
fi
if [ ! -x "$BUILD/bin/proton" ] && [ "${SKIP_BUILD:-0}" != 1 ]; then
  log "building the profiler into $BUILD"
  GEN=(); command -v ninja > /dev/null 2>&1 && GEN=(-G Ninja)
  if ! { cmake -S "$ROOT" -B "$BUILD" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release \
           -DPROTON_BUILD_VIEWER=OFF -DPROTON_BUILD_TESTS=OFF -DPROTON_BUILD_BENCH=OFF \
           -DPython3_EXECUTABLE="$PY" && cmake --build "$BUILD" -j "$(nproc)"; } \
       > "$OUT/build.log" 2>&1; then
    tail -20 "$OUT/build.log"
    echo "CHECK live_build FAIL see build.log"
    exit 1
  fi
fi

RUN="$WORK/run/live.rank*"
# The viewers start first: before the run's folder holds anything.
log "starting the viewers on '$RUN'"
( "$VIEWER" --follow "$RUN" --follow-timeout 120; echo "EXIT $?" ) 2> "$OUT/follow_pipe.err" |
  "$PY" -u -c 'import sys, time
for line in sys.stdin:
    sys.stdout.write("%.3f %s" % (time.time(), line))' > "$OUT/follow_pipe.log" &
pipe_pid=$!
tty_pid=
if command -v script > /dev/null 2>&1; then
  script -qfec "'$VIEWER' --follow '$RUN' --follow-timeout 120" "$OUT/follow_tty.typescript" \
    < /dev/null > /dev/null 2>&1 &
  tty_pid=$!
fi
sleep 1

launcher=(torchrun)
command -v torchrun > /dev/null 2>&1 || launcher=("$PY" -m torch.distributed.run)
log "running $STEPS steps on two ranks"
run_start=$(date +%s.%N)
(cd "$WORK/run" && timeout 600 "$BUILD/bin/proton" -n "$WORK/run/live" -m periodic_flushing \
   "${launcher[@]}" --nproc_per_node=2 --master_port=29518 "$W/live.py" "$STEPS" "$PAUSE_S") \
  > "$OUT/run.log" 2>&1
run_rc=$?
run_end=$(date +%s.%N)
log "run ended with $run_rc; waiting for the viewers"
wait "$pipe_pid"
tty_rc=skipped
if [ -n "$tty_pid" ]; then wait "$tty_pid"; tty_rc=$?; fi

"$VIEWER" -m time/ms --merge --stragglers "$WORK"/run/live.rank*.part_*.hatchet \
  > "$OUT/stragglers.txt" 2>&1
stragglers_rc=$?
for part in "$WORK"/run/live.rank*.part_*.hatchet; do
  printf '%s %s\n' "$(basename "$part")" "$("$VIEWER" -m time/ns "$part" | head -1 | cut -d' ' -f1)"
done > "$WORK/part_totals.txt"
tar czf "$OUT/live_run.tar.gz" -C "$WORK" run part_totals.txt 2> /dev/null

"$PY" - "$OUT" "$STEPS" "$run_rc" "$run_start" "$run_end" "$tty_rc" "$stragglers_rc" \
  "$WORK" <<'PY' | tee "$OUT/checks.txt"
import os
import re
import sys

out, steps, run_rc, run_start, run_end, tty_rc, stragglers_rc, work = sys.argv[1:]
run_dir = os.path.join(work, "run")
steps, run_start, run_end = int(steps), float(run_start), float(run_end)
failed = 0


def check(name, ok, details):
    global failed
    failed += not ok
    print(f"CHECK {name} {'PASS' if ok else 'FAIL'} {details}", flush=True)


files = sorted(os.listdir(run_dir))
want = {f"live.rank{r}.part_{p}.hatchet" for r in (0, 1) for p in range(steps)}
markers = {f"live.rank{r}.done" for r in (0, 1)}
check("live_run", run_rc == "0" and want <= set(files) and markers <= set(files),
      f"exit {run_rc}; missing {sorted((want | markers) - set(files))[:6]}")

lines = open(os.path.join(out, "follow_pipe.log")).read().splitlines()
stamped = [(float(l.split(" ", 1)[0]), l.split(" ", 1)[1] if " " in l else "") for l in lines]
text = "\n".join(t for _, t in stamped)
blocks = [(ts, int(m.group(1))) for ts, t in stamped for m in [re.match(r"== phase (\d+) of ", t)] if m]
err = open(os.path.join(out, "follow_pipe.err")).read()
check("live_pipe_exit", stamped and stamped[-1][1] == "EXIT 0" and err == "",
      f"last line {stamped[-1][1] if stamped else None!r}; stderr {err[:200]!r}")
check("live_pipe_blocks", [p for _, p in blocks] == list(range(steps)),
      f"phases shown {[p for _, p in blocks]}")
ended = f"ended: {steps} phases, {2 * steps} parts from 2 ranks =="
check("live_pipe_end", ended in text, f"want '{ended}'")
early = [p for ts, p in blocks if ts < run_end - 1.0]
check("live_during_run", len(early) >= steps // 2,
      f"{len(early)} of {len(blocks)} blocks shown before the run ended "
      f"(first at +{blocks[0][0] - run_start:.1f} s, run took {run_end - run_start:.1f} s)"
      if blocks else "no block")

totals = {}
for line in open(os.path.join(work, "part_totals.txt")):
    name, ns = line.split()
    m = re.match(r"live\.rank(\d)\.part_(\d+)\.hatchet", name)
    totals.setdefault(int(m.group(2)), {})[int(m.group(1))] = float(ns)
bad = []
for phase in range(steps):
    m = re.search(rf"== phase {phase} of .*?\ntime/ms  ([0-9.]+)", text)
    want_ms = sum(totals.get(phase, {}).values()) / 1e6
    if not m or abs(float(m.group(1)) - want_ms) > 0.0015:
        bad.append((phase, m.group(1) if m else None, round(want_ms, 3)))
check("live_phase_totals", not bad, f"(phase, shown, sum of the parts) that differ: {bad[:4]}")
slow = []
for phase in range(3, min(10, steps)):
    block = text.split(f"== phase {phase} of ")[1].split("\n== ")[0]
    m = re.search(r"slowest (\S+)", block)
    slow.append(m.group(1) if m else None)
check("live_slowest_rank", slow and all(s == "rank1" for s in slow),
      f"slowest in phases 3-9: {slow}")

if tty_rc == "skipped":
    print("CHECK live_terminal SKIP script(1) not found")
else:
    screen = open(os.path.join(out, "follow_tty.typescript"), errors="replace").read()
    redraws = screen.count("\x1b[H\x1b[2J")
    check("live_terminal", tty_rc == "0" and redraws >= 3 and "ended: " in screen,
          f"exit {tty_rc}, {redraws} redraws")

report = open(os.path.join(out, "stragglers.txt")).read()
rows = {int(l.split()[0]): l.split()[3] for l in report.splitlines()[2:] if re.match(r"^ +\d+ ", l)}
check("stragglers_report", stragglers_rc == "0" and
      all(rows.get(s) == "rank1" for s in range(3, min(10, steps))) and "  rank1: slow in" in report,
      f"exit {stragglers_rc}; slowest of steps 3-9: {[rows.get(s) for s in range(3, 10)]}")
sys.exit(1 if failed else 0)
PY
status=${PIPESTATUS[0]}
log "logs in $OUT"
exit "$status"
