#!/usr/bin/env bash
# GPU proof (profiler.md §7.2): builds the profiler side of the project, runs the workloads of
# tests/gpu/workloads once with Triton's Proton (the reference, `python -m triton.profiler.proton`)
# and once with ours in the same session, compares the profiles structurally
# (tests/gpu/compare_profiles.py), prints a PASS/FAIL table, and saves the table, logs and both
# sets of profiles as one archive under $OUT (gpu_results.tar.gz) plus the table (table.txt).
#
# Needs: an NVIDIA GPU, python3 on PATH with PyTorch and Triton (model.py cases also need
# `transformers`), CMake, a C++20 compiler, CUDA/CUPTI headers. No network.
#   OUT=/tmp/out tests/gpu/run.sh            # everything
#   CASES="shadow trace" tests/gpu/run.sh    # a subset (names as in the table)
#   SKIP_BUILD=1 BUILD=build-gpu tests/gpu/run.sh
# Exit status: 0 when every compared case passed, 1 otherwise.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build-gpu}
OUT=${OUT:-$BUILD/gpu-out}
WORK=${WORK:-$(mktemp -d /tmp/proton-gpu.XXXXXX)}
W=$ROOT/tests/gpu/workloads
PY=$(command -v python3)
CASES=${CASES:-all}
TIMEOUT=${CASE_TIMEOUT:-240}
mkdir -p "$OUT" "$WORK/ref" "$WORK/ours" "$WORK/logs"
MANIFEST=$WORK/manifest.tsv
: > "$MANIFEST"
export PYTHONUNBUFFERED=1

want() { [ "$CASES" = all ] || [[ " $CASES " == *" $1 "* ]]; }
log() { echo "[run.sh $(date +%H:%M:%S)] $*"; }

# ---- environment -------------------------------------------------------------------------
{
  nvidia-smi -L 2>&1 || true
  "$PY" -c 'import sys, torch, triton; print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, "triton", triton.__version__)' 2>&1
  cmake --version | head -1; g++ --version | head -1
} > "$WORK/logs/environment.txt" 2>&1
cat "$WORK/logs/environment.txt"

# ---- build -------------------------------------------------------------------------------
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  log "building into $BUILD"
  GEN=(); command -v ninja >/dev/null 2>&1 && GEN=(-G Ninja)
  if ! { cmake -S "$ROOT" -B "$BUILD" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release \
           -DPROTON_BUILD_VIEWER=OFF -DPROTON_BUILD_TESTS=OFF -DPROTON_BUILD_BENCH=OFF \
           -DPython3_EXECUTABLE="$PY" &&
         cmake --build "$BUILD" -j "$(nproc)"; } > "$WORK/logs/build.log" 2>&1; then
    tail -40 "$WORK/logs/build.log"
    echo "BUILD FAILED" | tee "$OUT/table.txt"
    tar czf "$OUT/gpu_results.tar.gz" -C "$WORK" . 2>/dev/null
    exit 1
  fi
  log "build done"
fi
OURS=$BUILD/bin/proton
REF=("$PY" -m triton.profiler.proton)
# API-mode scripts (`import triton.profiler as proton`) reach our module through the alias.
# tests/gpu/api_shim installs that alias explicitly and reports which module the script used.
BOOT=$BUILD/python/proton_bootstrap
SHIM=$ROOT/tests/gpu/api_shim
OURS_API_ENV=(env "PYTHONPATH=$SHIM:$BUILD/python${PYTHONPATH:+:$PYTHONPATH}"
              PROTON_BOOTSTRAP_DIR="$BOOT" PROTON_ALIAS_TRITON_PROFILER=1)
# An API-mode run counts as ours only if the shim saw our module behind triton.profiler.
checked_rc() {
  local rc=$1 logf=$2
  if [ "$rc" = 0 ] && ! grep -q '\[api-shim\] triton.profiler=ours' "$logf"; then
    echo 98; return
  fi
  echo "$rc"
}
"$OURS" --version > "$WORK/logs/ours_version.txt" 2>&1

# run_one LOG DIR -- command...: runs in DIR with a timeout, returns the status.
run_one() {
  local logf=$1 dir=$2; shift 3
  (cd "$dir" && timeout -k 10 "$TIMEOUT" "$@") > "$logf" 2>&1
  echo $?
}
# cli_case NAME KIND EXT SCRIPT_DIR ARGS...: the same command under both launchers.
cli_case() {
  local name=$1 kind=$2 ext=$3 dir=$4; shift 4
  want "$name" || return 0
  log "case $name"
  local rr orc
  rr=$(run_one "$WORK/logs/ref_$name.log" "$dir" -- "${REF[@]}" -n "$WORK/ref/$name" "$@")
  orc=$(run_one "$WORK/logs/ours_$name.log" "$dir" -- "$OURS" -n "$WORK/ours/$name" "$@")
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$kind" "$WORK/ref/$name.$ext" \
    "$WORK/ours/$name.$ext" "$rr" "$orc" >> "$MANIFEST"
}
# feature_case FEATURE [FILE_SUFFIX...]: features.py in API mode, writing $OUT/ref_<feature>.
feature_case() {
  local feature=$1; shift
  want "$feature" || return 0
  log "case $feature"
  local rr orc
  rr=$(run_one "$WORK/logs/ref_$feature.log" "$W" -- env OUT="$WORK/ref" "$PY" features.py "$feature")
  orc=$(run_one "$WORK/logs/ours_$feature.log" "$W" -- "${OURS_API_ENV[@]}" OUT="$WORK/ours" "$PY" features.py "$feature")
  orc=$(checked_rc "$orc" "$WORK/logs/ours_$feature.log")
  local suffixes=("$@"); [ ${#suffixes[@]} -eq 0 ] && suffixes=("")
  for s in "${suffixes[@]}"; do
    local kind=hatchet ref_file="$WORK/ref/ref_$feature$s.hatchet" our_file="$WORK/ours/ref_$feature$s.hatchet"
    if [ "$feature" = msgpack ]; then
      kind=ours-only:msgpack; our_file="$WORK/ours/ref_$feature.hatchet_msgpack"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$feature$s" "$kind" "$ref_file" "$our_file" "$rr" "$orc" >> "$MANIFEST"
  done
}

# ---- workload.py: G1-G4 ----------------------------------------------------------------------
cli_case shadow hatchet hatchet "$W" workload.py 200
cli_case python hatchet hatchet "$W" -c python workload.py 20
cli_case hook hatchet hatchet "$W" -k triton workload.py 20
cli_case trace trace chrome_trace "$W" -d trace workload.py 20
# Ours only: the same trace as .perfetto_trace (-f is ours), checked against the reference's
# .chrome_trace of the trace case (run here when that case was not).
if want perfetto; then
  log "case perfetto"
  rr=$(awk -F'\t' '$1 == "trace" {print $5}' "$MANIFEST")
  [ -n "$rr" ] || rr=$(run_one "$WORK/logs/ref_trace.log" "$W" -- "${REF[@]}" -n "$WORK/ref/trace" -d trace workload.py 20)
  orc=$(run_one "$WORK/logs/ours_perfetto.log" "$W" -- "$OURS" -n "$WORK/ours/perfetto" -d trace -f perfetto_trace workload.py 20)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' perfetto perfetto "$WORK/ref/trace.chrome_trace" \
    "$WORK/ours/perfetto.perfetto_trace" "$rr" "$orc" >> "$MANIFEST"
fi
# G9: `proton python workload.py 20` (an executable target) gives the tree of G1 at 20 iterations.
if want exe_python; then
  log "case exe_python"
  rr=$(run_one "$WORK/logs/ref_exe_python.log" "$W" -- "${REF[@]}" -n "$WORK/ref/exe_python" workload.py 20)
  orc=$(run_one "$WORK/logs/ours_exe_python.log" "$W" -- "$OURS" -n "$WORK/ours/exe_python" "$PY" workload.py 20)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' exe_python hatchet "$WORK/ref/exe_python.hatchet" \
    "$WORK/ours/exe_python.hatchet" "$rr" "$orc" >> "$MANIFEST"
fi

# ---- features.py: graphs, threads, NVTX, states, sessions, scope metrics, msgpack ------------
feature_case graph
feature_case threads
feature_case nvtx
feature_case state
feature_case sessions _0 _1
feature_case scopemetrics
feature_case msgpack
feature_case pcsampling

# ---- pytest pass-through ---------------------------------------------------------------------
if "$PY" -c 'import pytest' 2>/dev/null; then
  cli_case pytest hatchet hatchet "$W/pytest_example" pytest -q test_kernels.py
fi

# ---- G15: small activity buffers, exact kernel count or the lost-records warning -------------
if want buffers; then
  log "case buffers"
  n=200000
  rc=$(run_one "$WORK/logs/ours_buffers.log" "$W" -- "${OURS_API_ENV[@]}" OUT="$WORK/ours" \
       PROTON_PROFILE_BUFFER_SIZE=65536 "$PY" overhead.py proton torch $n)
  rc=$(checked_rc "$rc" "$WORK/logs/ours_buffers.log")
  "$PY" - "$WORK/ours/ovh_proton_torch.hatchet" "$WORK/logs/ours_buffers.log" $((n + 200)) "$rc" \
      > "$WORK/logs/check_buffers.txt" 2>&1 <<'PYEOF'
import json, re, sys
path, logf, expected, rc = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
if rc != "0":
    print(f"FAIL run exited {rc}"); sys.exit()
root = json.load(open(path))[0]
counts = [c["metrics"].get("count", 0) for c in root["children"]]
top = max(counts)
text = open(logf).read()
m = re.search(r"(\d+) kernel records were lost", text)
if top == expected:
    print(f"PASS exact count {top} with 64 KiB buffers")
elif m and top + int(m.group(1)) >= expected:
    print(f"PASS {top} kernels + lost-records warning ({m.group(1)})")
else:
    print(f"FAIL count {top} != {expected}, no matching lost-records warning")
PYEOF
  log "$(cat "$WORK/logs/check_buffers.txt")"
fi

# ---- G11 coexistence with torch.profiler, G12 graph replays (ours only; CHECK lines) ----------
CHECKS_FILE=$WORK/logs/checks.txt
: > "$CHECKS_FILE"
# check_lines NAME RC LOG: the script's CHECK lines, or one FAIL line when it died.
check_lines() {
  local name=$1 rc=$2 logf=$3
  grep '^CHECK ' "$logf" | sed 's/^CHECK //' >> "$CHECKS_FILE"
  if [ "$rc" != 0 ]; then
    echo "$name FAIL exit $rc: $(grep -v '^CHECK ' "$logf" | tail -2 | tr '\n' ' ')" >> "$CHECKS_FILE"
  fi
}
if want coexist; then
  log "case coexist"
  rc=$(run_one "$WORK/logs/ours_coexist_cli.log" "$W" -- "$OURS" -n "$WORK/ours/coexist_cli" \
       "$PY" coexist.py cli)
  check_lines g11_cli "$rc" "$WORK/logs/ours_coexist_cli.log"
  if [ -s "$WORK/ours/coexist_cli.hatchet" ]; then
    how=$(grep -q 'CUPTI is already in use' "$WORK/logs/ours_coexist_cli.log" \
          && echo "we stepped aside" || echo "torch.profiler got no CUPTI; ours recorded")
    echo "g11_cli_profile_written PASS $how" >> "$CHECKS_FILE"
  else
    echo "g11_cli_profile_written FAIL no coexist_cli.hatchet" >> "$CHECKS_FILE"
  fi
  for m in api_during api_after; do
    rc=$(run_one "$WORK/logs/ours_coexist_$m.log" "$W" -- "${OURS_API_ENV[@]}" OUT="$WORK/ours" \
         "$PY" coexist.py $m)
    check_lines "g11_$m" "$(checked_rc "$rc" "$WORK/logs/ours_coexist_$m.log")" \
      "$WORK/logs/ours_coexist_$m.log"
  done
fi
if want graph_replays; then
  log "case graph_replays"
  for m in during before; do
    rc=$(run_one "$WORK/logs/ours_g12_$m.log" "$W" -- "${OURS_API_ENV[@]}" OUT="$WORK/ours" \
         "$PY" graph_replays.py $m)
    check_lines "g12_$m" "$(checked_rc "$rc" "$WORK/logs/ours_g12_$m.log")" "$WORK/logs/ours_g12_$m.log"
  done
  n=$(grep -c 'a CUDA graph captured before profiling started was launched' "$WORK/logs/ours_g12_before.log")
  if [ "$n" = 1 ]; then r=PASS; else r=FAIL; fi
  echo "g12_before_one_warning $r warning printed $n times" >> "$CHECKS_FILE"
fi

# ---- phases, periodic flushing, SIGKILL, a vLLM-style manager, the 3.7+ trace (CHECK lines) ---
if want phases; then
  log "case phases"
  rc=$(TIMEOUT=540 run_one "$WORK/logs/ours_phases.log" "$W" -- \
       "$PY" "$ROOT/tests/gpu/phases_check.py" "$OURS" "$BUILD" "$WORK/ours/phases")
  check_lines phases "$rc" "$WORK/logs/ours_phases.log"
fi

# ---- native_graph: a nvcc program's stream capture and replays (§3.8), static and shared cudart
if want native_graph; then
  log "case native_graph"
  NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  nd=$WORK/native_graph; mkdir -p "$nd"
  for rt in static shared; do
    if ! "$NVCC" -arch=sm_90 -cudart $rt -o "$nd/graph_capture_$rt" \
         "$ROOT/tests/gpu/native/graph_capture.cu" > "$WORK/logs/native_graph_build_$rt.log" 2>&1; then
      echo "native_graph_$rt FAIL nvcc: $(tail -2 "$WORK/logs/native_graph_build_$rt.log" | tr '\n' ' ')" >> "$CHECKS_FILE"
      continue
    fi
    rc=$(run_one "$WORK/logs/ours_native_graph_$rt.log" "$nd" -- "$OURS" -n "$nd/ng_$rt" "./graph_capture_$rt")
    if [ "$rc" != 0 ]; then
      echo "native_graph_$rt FAIL exit $rc: $(tail -2 "$WORK/logs/ours_native_graph_$rt.log" | tr '\n' ' ')" >> "$CHECKS_FILE"
    else
      "$PY" "$ROOT/tests/gpu/check_native_graph.py" "$nd/ng_$rt.hatchet" \
        "$WORK/logs/ours_native_graph_$rt.log" $rt >> "$CHECKS_FILE"
    fi
  done
  # The callback sequence of one run, for the reader (PROTON_DEBUG_CALLBACKS, §1.11).
  [ -x "$nd/graph_capture_static" ] && run_one "$WORK/logs/native_graph_callbacks.log" "$nd" -- \
    env PROTON_DEBUG_CALLBACKS=1 "$OURS" -n "$nd/ng_debug" ./graph_capture_static > /dev/null
fi

# ---- model.py: G5 ----------------------------------------------------------------------------
if "$PY" -c 'import transformers' 2>/dev/null; then
  cli_case gpt2_shadow hatchet hatchet "$W" model.py 3
  cli_case gpt2_python hatchet hatchet "$W" -c python model.py 3
  cli_case gpt2_trace trace chrome_trace "$W" -d trace model.py 1
else
  log "transformers is not installed: model.py cases skipped"
fi

# ---- compare ---------------------------------------------------------------------------------
log "comparing"
"$PY" "$ROOT/tests/gpu/compare_profiles.py" "$MANIFEST" --table "$WORK/table.txt" --json "$WORK/table.json"
status=$?
if [ -s "$CHECKS_FILE" ]; then
  sed 's/^/check /' "$CHECKS_FILE" | tee -a "$WORK/table.txt"
  grep -q ' FAIL' "$CHECKS_FILE" && status=1
fi
if [ -f "$WORK/logs/check_buffers.txt" ]; then
  echo "buffers (G15): $(cat "$WORK/logs/check_buffers.txt")" | tee -a "$WORK/table.txt"
  grep -q '^FAIL' "$WORK/logs/check_buffers.txt" && status=1
fi
# Anything our runs printed as a warning or error, for the reader of the table.
grep -h -E '\[proton\]|proton: |Traceback|Error' "$WORK"/logs/ours_*.log 2>/dev/null | sort | uniq -c | sort -rn | head -20 \
  > "$WORK/logs/our_messages.txt"
echo "--- messages from our runs (count, line) ---"; cat "$WORK/logs/our_messages.txt"

if [ -x "$ROOT/tests/gpu/launcher_checks.sh" ] && want launcher; then
  log "launcher checks"
  PROTON="$OURS" BUILD="$BUILD" WORK="$WORK/launcher" "$ROOT/tests/gpu/launcher_checks.sh" \
      > "$WORK/logs/launcher_checks.log" 2>&1
  lc=$?
  tail -30 "$WORK/logs/launcher_checks.log"
  echo "launcher_checks.sh: exit $lc" | tee -a "$WORK/table.txt"
  [ $lc -eq 0 ] || status=1
fi

cp "$WORK/table.txt" "$OUT/table.txt"
tar czf "$OUT/gpu_results.tar.gz" -C "$WORK" . 2>/dev/null
log "results: $OUT/table.txt, $OUT/gpu_results.tar.gz"
exit $status
