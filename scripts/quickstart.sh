#!/usr/bin/env bash
# README command 1: install what is needed, build, and run the main job on bundled real
# profiles (and profile a bundled example when an NVIDIA GPU is present).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --if-missing
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"

echo "== proton-viewer: GPT-2 training step recorded with Triton 3.6 on an H200 =="
build/bin/proton-viewer -m time/ms,time/%,count -d 2 examples/gpt2_shadow.hatchet
echo "== the Triton launch hook profile: time and achieved bandwidth =="
build/bin/proton-viewer -m time/us,gbyte/s,tflop32/s examples/ref_hook.hatchet

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && [ -x build/bin/proton ]; then
  echo "== GPU found: profiling examples/vector_add.py =="
  build/bin/proton -n build/quickstart examples/vector_add.py
  build/bin/proton-viewer -m time/us,count build/quickstart.hatchet
else
  echo "(no NVIDIA GPU here: skipped profiling examples/vector_add.py)"
fi
