#!/usr/bin/env bash
# GPU checks of the `proton` command (issue 5; profiler.md §2, §7.2 G6, G8-G10): each check
# prints one "PASS <name>" or "FAIL <name>: <reason>" line; the exit status is 0 only when all
# passed. Called by tests/gpu/run.sh; runs alone too:
#   PROTON=build-gpu/bin/proton tests/gpu/launcher_checks.sh
# Needs an NVIDIA GPU and python3 on PATH with PyTorch (torchrun) and Triton; the native check
# needs nvcc (PATH, $CUDA_HOME/bin or /usr/local/cuda/bin). No network.
#   PROTON   the launcher (default: $BUILD/bin/proton, BUILD default build-gpu)
#   WORK     scratch directory (default: a new /tmp/proton-launcher.XXXXXX)
#   CHECKS   a subset, e.g. CHECKS="script torchrun"
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build-gpu}
PROTON=${PROTON:-$BUILD/bin/proton}
WORK=${WORK:-$(mktemp -d /tmp/proton-launcher.XXXXXX)}
mkdir -p "$WORK"
# Every check runs in its own directory: make the paths absolute first.
BUILD=$(cd "$BUILD" 2>/dev/null && pwd || echo "$BUILD")
case $PROTON in /*) ;; *) PROTON=$(pwd)/$PROTON ;; esac
WORK=$(cd "$WORK" && pwd)
PY=${PYTHON:-$(command -v python3)}
CHECKS=${CHECKS:-all}
TIMEOUT=${CHECK_TIMEOUT:-300}
export PROTON_PYTHON=$PY PYTHONUNBUFFERED=1
mkdir -p "$WORK"
failures=0

want() { [ "$CHECKS" = all ] || [[ " $CHECKS " == *" $1 "* ]]; }
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; failures=$((failures + 1)); }

# profile_check FILE EXPR: evaluates a Python expression over the profile. Names available:
# doc (the parsed .hatchet), names (every frame name), kernels (total `count` of the kernel
# leaves), scopes (the names of ROOT's children). Prints the reason and fails when false.
profile_check() {
  "$PY" - "$1" "$2" <<'PY'
import json, sys
path, expr = sys.argv[1], sys.argv[2]
try:
    doc = json.load(open(path))
except Exception as error:
    print(f"cannot read {path}: {error}")
    sys.exit(1)
names, kernels, stack = [], 0, [doc[0]]
while stack:  # iterative: profiles may be deep
    node = stack.pop()
    names.append(node["frame"]["name"])
    if not node.get("children") and node is not doc[0]:
        kernels += int(node.get("metrics", {}).get("count", 0))
    stack.extend(node.get("children", []))
scopes = [c["frame"]["name"] for c in doc[0].get("children", [])]
if not eval(expr):
    print(f"{path}: not ({expr}); kernels={kernels} scopes={scopes[:10]}")
    sys.exit(1)
PY
}

# run_in DIR LOG -- command...: runs with a timeout; returns its status.
run_in() {
  local dir=$1 logf=$2 rc; shift 3
  (cd "$dir" && timeout -k 10 "$TIMEOUT" "$@") > "$logf" 2>&1
  rc=$?
  echo $rc > "$logf.rc"
  return $rc
}

# judge NAME RC WANT LOG FILE EXPR: PASS when the command exited with WANT and the profile
# FILE satisfies EXPR (see profile_check); otherwise one FAIL line saying which.
judge() {
  local name=$1 rc=$2 want=$3 logf=$4 file=$5 expr=$6 why
  if [ "$rc" -ne "$want" ]; then
    fail "$name" "exit $rc, want $want ($(tail -3 "$logf" | tr '\n' ' '))"
  elif why=$(profile_check "$file" "$expr"); then
    pass "$name"
  else
    fail "$name" "$why"
  fi
}

[ -x "$PROTON" ] || { echo "FAIL setup: no launcher at $PROTON"; exit 1; }
"$PROTON" --version || { echo "FAIL setup: $PROTON --version"; exit 1; }
echo "work directory: $WORK"

# ---- proton script.py ---------------------------------------------------------------------
if want script; then
  d=$WORK/script; mkdir -p "$d"
  cat > "$d/gpu_script.py" <<'PY'
import sys
import torch
import triton.profiler as proton  # reaches ours through the alias

x = torch.ones(1 << 20, device="cuda")
for _ in range(5):
    with proton.scope("step"):
        x = x * 2 + 1
torch.cuda.synchronize()
print("alias", sys.modules["triton.profiler"] is sys.modules.get("proton"))
PY
  run_in "$d" "$d/log" -- "$PROTON" -n out gpu_script.py
  rc=$?
  if [ $rc -eq 0 ] && ! grep -q "alias True" "$d/log"; then
    fail script "triton.profiler was not our module"
  else
    judge script $rc 0 "$d/log" "$d/out.hatchet" "'step' in scopes and kernels >= 10"
  fi
fi

# ---- python -m proton and -c python --------------------------------------------------------
if want python_m; then
  d=$WORK/python_m; mkdir -p "$d"
  cp "$WORK/script/gpu_script.py" "$d/" 2>/dev/null || printf 'import torch\nimport proton\nwith proton.scope("step"):\n    torch.ones(8, device="cuda").sum().item()\n' > "$d/gpu_script.py"
  run_in "$d" "$d/log" -- env PYTHONPATH="$BUILD/python${PYTHONPATH:+:$PYTHONPATH}" \
        "$PY" -m proton -n out -c python gpu_script.py
  judge python_m $? 0 "$d/log" "$d/out.hatchet" \
    "kernels >= 1 and all(s.startswith('$d/gpu_script.py:') for s in scopes if s != 'ROOT') and not any('proton_bootstrap' in n or 'runpy' in n for n in names)"
fi

# ---- proton pytest ------------------------------------------------------------------------
if want pytest; then
  d=$WORK/pytest; mkdir -p "$d"
  cp "$ROOT"/tests/gpu/workloads/pytest_example/*.py "$d/"
  run_in "$d" "$d/log" -- "$PROTON" -n out pytest -q -p no:cacheprovider test_kernels.py
  judge pytest $? 0 "$d/log" "$d/out.hatchet" "kernels >= 2"
  # pytest's own exit status passes through (1: a failing test).
  printf 'def test_fails():\n    assert False\n' > "$d/test_fail.py"
  run_in "$d" "$d/log_fail" -- "$PROTON" -n fail pytest -q -p no:cacheprovider test_fail.py
  rc=$?
  if [ $rc -eq 1 ]; then pass pytest_status; else fail pytest_status "exit $rc, want 1"; fi
fi

# ---- torchrun: one profile per rank -------------------------------------------------------
if want torchrun; then
  d=$WORK/torchrun; mkdir -p "$d"
  cat > "$d/train_tiny.py" <<'PY'
import os
import torch
import torch.distributed as dist

dist.init_process_group("gloo")  # two ranks share the one GPU: NCCL refuses that
rank = dist.get_rank()
model = torch.nn.Linear(64, 64).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    loss = model(torch.randn(32, 64, device="cuda")).square().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
t = torch.ones(1) * rank
dist.all_reduce(t)
torch.cuda.synchronize()
dist.destroy_process_group()
print("rank", rank, "done", float(t))
PY
  launcher=(torchrun)
  command -v torchrun >/dev/null 2>&1 || launcher=("$PY" -m torch.distributed.run)
  run_in "$d" "$d/log" -- "$PROTON" -n r "${launcher[@]}" --nproc_per_node=2 \
        --master_port=29517 train_tiny.py
  rc=$?
  if [ $rc -ne 0 ]; then
    fail torchrun "exit $rc ($(tail -3 "$d/log" | tr '\n' ' '))"
  else
    ok=1
    for rank in 0 1; do
      if ! why=$(profile_check "$d/r.rank$rank.hatchet" "kernels >= 10"); then
        fail torchrun "rank $rank: $why"; ok=0
      fi
    done
    extra=$(cd "$d" && ls r.*.hatchet 2>/dev/null | grep -v -E '^r\.(rank[01]\.)?hatchet$' | tr '\n' ' ')
    if [ -n "$extra" ]; then fail torchrun "unexpected files: $extra"; ok=0; fi
    grep -q "proton: wrote" "$d/log" || { fail torchrun "no 'proton: wrote' line"; ok=0; }
    [ $ok = 1 ] && pass torchrun
  fi
fi

# ---- worker processes that use CUDA: one pid file each --------------------------------------
# pool_check NAME START_METHOD COUNT: the root starts COUNT workers with multiprocessing's
# START_METHOD, each runs a kernel and writes <base>.pid<P>.hatchet; the root uses the GPU
# after them. For "fork": the root's session starts without CUPTI (attached at its first
# cuInit), so the driver is not initialised before the fork and the children may use CUDA.
pool_check() {
  local name=$1 method=$2 count=$3 d=$WORK/$1 rc ok why pid
  mkdir -p "$d"
  cat > "$d/pool.py" <<'PY'
import multiprocessing as mp
import sys
import torch

def work(i):
    x = torch.ones(1024, device="cuda") * i
    return float(x.sum())

if __name__ == "__main__":
    ctx = mp.get_context(sys.argv[1])
    procs = [ctx.Process(target=work, args=(i,)) for i in range(int(sys.argv[2]))]
    for p in procs: p.start()
    for p in procs: p.join()
    print("pids", *[p.pid for p in procs])
    print("exitcodes", *[p.exitcode for p in procs])
    work(5)
PY
  run_in "$d" "$d/log" -- "$PROTON" -n p pool.py "$method" "$count"
  rc=$?
  if [ $rc -ne 0 ] || ! grep -q '^exitcodes[ 0]*$' "$d/log"; then
    fail "$name" "exit $rc ($(tail -3 "$d/log" | tr '\n' ' '))"
    return
  fi
  ok=1
  for pid in $(grep '^pids' "$d/log" | cut -d' ' -f2-); do
    why=$(profile_check "$d/p.pid$pid.hatchet" "kernels >= 1") || { fail "$name" "$why"; ok=0; }
  done
  why=$(profile_check "$d/p.hatchet" "kernels >= 1") || { fail "$name" "$why"; ok=0; }
  [ $ok = 1 ] && pass "$name"
}
want spawn && pool_check spawn spawn 3
want fork && pool_check fork fork 2

# ---- fork right after advance_phase, with the GPU in use (profiler.md §2.9) -------------------
# The parent's kernels land in its parts; DataLoader fork workers and bare forked children
# open scopes and exit; nothing hangs, in periodic_flushing and in pcsampling.
fork_phases_check() {
  local name=$1 mode=$2 d=$WORK/$1
  mkdir -p "$d"
  cat > "$d/f.py" <<'PY'
import os
import torch
import proton

x = torch.ones(1 << 20, device="cuda")
loader = torch.utils.data.DataLoader(range(64), batch_size=8, num_workers=2,
                                     multiprocessing_context="fork")
for step in range(10):
    for batch in loader:
        (x * float(batch.sum())).sum().item()
    proton.data.advance_phase()
    pid = os.fork()
    if pid == 0:
        for j in range(50):
            with proton.scope("child"):
                pass
        os._exit(0)
    os.waitpid(pid, 0)
print("done")
PY
  run_in "$d" "$d/log" -- "$PROTON" -n x -m "$mode" f.py
  judge "$name" $? 0 "$d/log" "$d/x.part_0.hatchet" "kernels >= 1 and 'child' not in names"
}
want fork_phases && fork_phases_check fork_phases periodic_flushing
want fork_pcsampling && fork_phases_check fork_pcsampling pcsampling

# ---- shell-script root running Python: rename rule ----------------------------------------
if want shell; then
  d=$WORK/shell; mkdir -p "$d"
  printf 'import torch\ntorch.ones(8, device="cuda").sum().item()\n' > "$d/k.py"
  printf '#!/bin/sh\n"$PROTON_PYTHON" k.py\n' > "$d/run.sh"; chmod +x "$d/run.sh"
  run_in "$d" "$d/log" -- "$PROTON" -n x ./run.sh
  rc=$?
  if [ $rc -eq 0 ] && [ "$(cd "$d" && ls *.hatchet)" != "x.hatchet" ]; then
    fail shell "files: $(cd "$d" && ls *.hatchet | tr '\n' ' ')"
  else
    judge shell $rc 0 "$d/log" "$d/x.hatchet" "kernels >= 1"
  fi
fi

# ---- SIGTERM mid-loop: the profile is still written ---------------------------------------
if want sigterm; then
  d=$WORK/sigterm; mkdir -p "$d"
  cat > "$d/loop.py" <<'PY'
import time
import torch
import proton

x = torch.ones(1 << 16, device="cuda")
with proton.scope("loop"):
    for i in range(100000):
        x = x + 1
        if i == 100:
            torch.cuda.synchronize()
            open("ready", "w").close()
        time.sleep(0.001)
PY
  (cd "$d" && exec "$PROTON" -n t loop.py > log 2>&1) &
  lpid=$!
  for _ in $(seq 1 600); do [ -e "$d/ready" ] && break; sleep 0.1; done
  kill -TERM $lpid 2>/dev/null
  wait $lpid
  judge sigterm $? $((128 + 15)) "$d/log" "$d/t.hatchet" "'loop' in scopes and kernels >= 100"
fi

# ---- native CUDA program built with nvcc --------------------------------------------------
if want native; then
  d=$WORK/native; mkdir -p "$d"
  NVCC=$(command -v nvcc || true)
  for c in "${CUDA_HOME:-}/bin/nvcc" /usr/local/cuda/bin/nvcc; do
    [ -z "$NVCC" ] && [ -x "$c" ] && NVCC=$c
  done
  cat > "$d/native.cu" <<'CU'
#include <cstdio>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

__global__ void scale_kernel(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 2.0f * x[i] + 1.0f;
}

int main() {
  const int n = 1 << 20;
  float* x = nullptr;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess) return 2;
  nvtxRangePushA("native_range");
  for (int i = 0; i < 10; ++i) scale_kernel<<<(n + 255) / 256, 256>>>(x, n);
  nvtxRangePop();
  cudaDeviceSynchronize();
  cudaFree(x);
  std::printf("native done\n");
  return 0;
}
CU
  if [ -z "$NVCC" ]; then
    fail native "nvcc not found"
  elif ! (cd "$d" && "$NVCC" -O2 -o native native.cu) > "$d/build.log" 2>&1; then
    fail native "nvcc failed: $(tail -3 "$d/build.log" | tr '\n' ' ')"
  else
    run_in "$d" "$d/log" -- "$PROTON" -n nat ./native
    judge native $? 0 "$d/log" "$d/nat.hatchet" \
      "kernels >= 10 and any('scale_kernel' in n for n in names) and 'native_range' in scopes"
  fi
fi

# ---- start-up cost: goal <= 50 ms added by the command (bench/launcher) --------------------
# Judged with the GPU visible (what a user sees); the GPUs-hidden run is shown for information.
if want startup; then
  d=$WORK/startup; mkdir -p "$d"
  "$PY" "$ROOT/bench/launcher/bench_startup.py" --launcher "$PROTON" --python "$PY" --runs 15 \
      > "$d/log_gpu" 2>&1
  "$PY" "$ROOT/bench/launcher/bench_startup.py" --launcher "$PROTON" --python "$PY" --runs 15 \
      --env CUDA_VISIBLE_DEVICES= > "$d/log" 2>&1
  echo "--- with the GPU visible (what a user sees; judged):"
  cat "$d/log_gpu"
  echo "--- GPUs hidden (the command's own cost):"
  cat "$d/log"
  added=$(sed -n 's/^added *: median \([0-9.]*\) ms.*/\1/p' "$d/log_gpu")
  if [ -z "$added" ]; then
    fail startup "benchmark failed: $(tail -2 "$d/log_gpu" | tr '\n' ' ')"
  elif "$PY" -c "import sys; sys.exit(0 if float('$added') <= 50 else 1)"; then
    pass startup
  else
    fail startup "added ${added} ms > 50 ms"
  fi
fi

echo "launcher checks: $failures failed"
[ $failures -eq 0 ]
