#!/usr/bin/env bash
# The README's first command as a new user runs it on a GPU machine, in one call: a fresh clone
# of the repository in a temporary directory, scripts/quickstart.sh there (the GPU part
# included), then `pip install --no-build-isolation` of that clone with the first python3 on
# PATH (into a --target directory, so the Python's own environment is left as it was) and the
# installed `proton` profiling the example once more.
#   OUT=/tmp/out tests/gpu/quickstart_check.sh [REPOSITORY]
# REPOSITORY: a path, URL or bundle file git can clone (default: the repository this script
# is in; a copy that is not a git checkout is copied instead). Everything is printed and logged under $OUT
# (environment.txt, quickstart.log, pip.log, the profiles, status.txt).
# Exit status: quickstart's (0: built, and on a GPU the example's profile was written), or 1
# when the pip part failed after it.
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
repo=${1:-$here}
OUT=${OUT:-/tmp/proton-quickstart-check}
work=$(mktemp -d /tmp/proton-quickstart.XXXXXX)
mkdir -p "$OUT"
log() { echo "[quickstart_check $(date +%H:%M:%S)] $*"; }

{
  grep -h '^PRETTY_NAME=' /etc/os-release 2>/dev/null
  echo "user: $(id -un) (uid $(id -u))"
  nvidia-smi -L 2>&1 | head -n 8
  command -v python3 && python3 -c 'import sys; print("python", sys.version.split()[0])' 2>&1
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)' 2>&1 | tail -n 1
  cmake --version 2>&1 | head -n 1
  g++ --version 2>&1 | head -n 1
  echo "ninja: $(command -v ninja || echo absent); make: $(command -v make || echo absent)"
} | tee "$OUT/environment.txt"

if git -C "$repo" rev-parse --git-dir >/dev/null 2>&1 || [[ $repo == *://* ]] || [ -f "$repo" ]; then
  log "git clone $repo"
  git clone -q "$repo" "$work/proton" || { log "git clone failed"; exit 1; }
  git -C "$work/proton" log --oneline -1
else
  log "$repo is not a git checkout: copying its files instead"
  mkdir -p "$work/proton"
  tar -C "$repo" --exclude='./build*' -cf - . | tar -C "$work/proton" -xf -
fi

cd "$work/proton"
log "scripts/quickstart.sh"
start=$SECONDS
PYTHONUNBUFFERED=1 scripts/quickstart.sh 2>&1 | tee "$OUT/quickstart.log"
status=${PIPESTATUS[0]}
log "scripts/quickstart.sh exited $status after $((SECONDS - start)) s"
cp build/quickstart.hatchet "$OUT/" 2>/dev/null || true
cp build/proton-parts.txt "$OUT/" 2>/dev/null || true

pip_status=0
log "pip install --no-build-isolation . (python3: $(command -v python3))"
start=$SECONDS
if PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 python3 -m pip install --no-build-isolation \
     --no-deps --target "$work/site" . >"$OUT/pip.log" 2>&1; then
  log "pip install took $((SECONDS - start)) s"
  export PYTHONPATH=$work/site${PYTHONPATH:+:$PYTHONPATH}
  "$work/site/bin/proton" --version
  "$work/site/bin/proton-viewer" -h 2>&1 | head -n 1
  if nvidia-smi -L >/dev/null 2>&1; then
    "$work/site/bin/proton" -n "$OUT/pip_vector_add" examples/vector_add.py || pip_status=1
    [ -s "$OUT/pip_vector_add.hatchet" ] || { log "the installed proton wrote no profile"; pip_status=1; }
  fi
else
  grep -m 1 'proton: error:\|setup.py: error:' "$OUT/pip.log" || tail -n 5 "$OUT/pip.log"
  log "pip install failed (log: $OUT/pip.log)"
  pip_status=1
fi

echo "quickstart=$status pip=$pip_status" | tee "$OUT/status.txt"
rm -rf "$work"
[ "$status" -ne 0 ] && exit "$status"
exit "$pip_status"
