#!/usr/bin/env bash
# `pip install` of the package into a fresh venv, then the installed commands (ctest
# package_install, label package):
#   tests/package/install_test.sh SOURCE_DIR CMAKE_BUILD_DIR WORK_DIR [PYTHON]
# pip builds the wheel from a copy of the package's sources (so nothing is written into the
# source tree) and reuses CMAKE_BUILD_DIR (PROTON_CMAKE_BUILD_DIR) instead of building the
# C++ again. Then, from a directory outside both trees and with no PYTHONPATH:
# `import proton, proton.viewer` comes from the venv, `proton --version`, `proton-viewer -h`,
# and `proton` profiles a small script (no GPU: its scopes and metrics) whose profile the
# installed `proton-viewer` prints. Exit 77 (skipped) when venv or pip is missing.
set -euo pipefail
source_dir=$1 build_dir=$2 work=$3 python=${4:-/usr/bin/python3}

fail() { echo "package test: FAIL: $*" >&2; exit 1; }
skip() { echo "package test: skipped: $*" >&2; exit 77; }

"$python" -c 'import venv, ensurepip' 2>/dev/null || skip "$python has no venv/ensurepip (apt-get install python3-venv)"
"$python" -c 'import setuptools, wheel' 2>/dev/null || skip "$python has no setuptools/wheel (apt-get install python3-setuptools python3-wheel)"

rm -rf "$work" && mkdir -p "$work/src" "$work/run"
cp -r "$source_dir"/{pyproject.toml,setup.py,README.md,LICENSE,pip_build,python} "$work/src/"
find "$work/src" -name __pycache__ -prune -exec rm -rf {} +

# --system-site-packages: setuptools and wheel are Debian's (there is no package index).
"$python" -m venv --system-site-packages "$work/venv" || skip "python3 -m venv failed"
venv=$work/venv
"$venv/bin/python" -m pip --version >/dev/null 2>&1 || skip "the venv has no pip (apt-get install python3-pip)"

unset PYTHONPATH PROTON_LIBRARY PROTON_PYTHON CUDA_INJECTION64_PATH
export PIP_NO_INDEX=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
PROTON_CMAKE_BUILD_DIR=$build_dir "$venv/bin/pip" install -q --no-build-isolation "$work/src" \
  || fail "pip install"
rm -rf "$work/src"  # what follows must run from the installed tree only

cd "$work/run"
"$venv/bin/python" - "$venv" <<'PY' || fail "import proton, proton.viewer from the venv"
import os, sys
import proton, proton.viewer
venv = os.path.realpath(sys.argv[1])
for module in (proton, proton.viewer):
    assert os.path.realpath(module.__file__).startswith(venv + os.sep), module.__file__
print("package test: import proton ->", os.path.dirname(proton.__file__))
PY

version=$("$venv/bin/proton" --version) || fail "proton --version"
expected=$("$venv/bin/python" -c 'import proton; print("proton", proton.__version__)')
echo "package test: proton --version -> $version"
[ "$version" = "$expected" ] || fail "proton --version printed '$version', not '$expected'"
[ "$("$venv/bin/python" -m proton --version)" = "$expected" ] || fail "python -m proton --version"
usage=$("$venv/bin/proton-viewer" -h) || fail "proton-viewer -h"
grep -q "^usage: proton-viewer" <<<"$usage" || fail "proton-viewer -h printed no usage"

cat > tiny.py <<'PY'
import sys
import proton
with proton.scope("tiny_step", {"flops": 2.0e9}):
    pass
print("tiny.py ran in", sys.prefix)
PY
# As a user types it, with the venv's bin/ on PATH: the script runs in the venv's Python.
ran=$(PATH=$venv/bin:$PATH PROTON_VERBOSE=1 proton -n tiny tiny.py) || fail "proton -n tiny tiny.py"
echo "$ran"
grep -qx "tiny.py ran in $venv" <<<"$ran" || fail "tiny.py did not run in the venv's Python"
[ -s tiny.hatchet ] || fail "proton wrote no tiny.hatchet"
printed=$("$venv/bin/proton-viewer" -m flops tiny.hatchet) || fail "proton-viewer -m flops"
echo "$printed"
grep -q "tiny_step" <<<"$printed" || fail "the profile has no tiny_step scope"
from_module=$("$venv/bin/python" -m proton.viewer -m flops tiny.hatchet) || fail "python -m proton.viewer"
[ "$from_module" = "$printed" ] || fail "python -m proton.viewer printed another tree"
echo "package test: PASS"
