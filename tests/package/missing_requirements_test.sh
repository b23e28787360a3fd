#!/usr/bin/env bash
# `pip install --no-build-isolation .` where a build requirement is missing (ctest
# package_missing_requirements, label package): the build backend (pip_build/) stops before
# any build with one line naming what is missing and how to get it, and pip exits non-zero,
# within seconds. Before it, a venv without `wheel` (every venv of pyenv's, conda's or
# Debian's Python has none) failed with "invalid command 'bdist_wheel'", and one without
# setuptools (Python >= 3.12) with a traceback.
#   tests/package/missing_requirements_test.sh SOURCE_DIR WORK_DIR [PYTHON]
# Exit 77 (skipped) when PYTHON has no venv/ensurepip.
set -euo pipefail
source_dir=$1 work=$2 python=${3:-/usr/bin/python3}
deadline_s=30

fail() { echo "package test: FAIL: $*" >&2; exit 1; }
skip() { echo "package test: skipped: $*" >&2; exit 77; }

"$python" -c 'import venv, ensurepip' 2>/dev/null || skip "$python has no venv/ensurepip"
rm -rf "$work" && mkdir -p "$work/src" "$work/bin"
cp -r "$source_dir"/{pyproject.toml,setup.py,README.md,LICENSE,CMakeLists.txt,pip_build,python} \
  "$work/src/"
unset PYTHONPATH PROTON_CMAKE_BUILD_DIR
export PIP_NO_INDEX=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1

# install VENV EXPECTED...: pip (with $pip_path as its PATH, when set) fails quickly, and its output holds exactly one line of ours,
# which names every EXPECTED requirement, and no traceback.
install() {
  local venv=$1 out status start=$SECONDS
  shift
  set +e
  out=$(PATH=${pip_path:-$PATH} "$venv/bin/pip" install --no-build-isolation "$work/src" 2>&1)
  status=$?
  set -e
  grep 'error: cannot build' <<<"$out" | sed 's/^ */package test: /' || true
  [ "$status" -ne 0 ] || fail "pip install succeeded in $venv"
  ((SECONDS - start <= deadline_s)) || fail "pip took $((SECONDS - start)) s to fail"
  ! grep -q 'Traceback\|bdist_wheel' <<<"$out" || fail "pip's output has a traceback or bdist_wheel: $out"
  local ours
  ours=$(grep -c '^ *proton: error: cannot build proton for ' <<<"$out" || true)
  [ "$ours" -eq 1 ] || fail "expected one 'proton: error:' line, got $ours: $out"
  local line
  line=$(grep '^ *proton: error: ' <<<"$out")
  for expected in "$@"; do
    grep -qF -- "$expected" <<<"$line" || fail "the line does not name '$expected': $line"
  done
}

# A venv of its own (no system site-packages): pip and setuptools, no wheel.
"$python" -m venv "$work/plain" || skip "$python -m venv failed"
if "$work/plain/bin/python" -c 'import wheel' 2>/dev/null; then
  "$work/plain/bin/pip" uninstall -q -y wheel
fi
"$work/plain/bin/python" -m pip --version >/dev/null 2>&1 || skip "the venv has no pip"
install "$work/plain" "missing: wheel;" "-m pip install wheel" "without --no-build-isolation"

# No setuptools either (Python >= 3.12 venvs): pip could not even import the backend.
"$work/plain/bin/pip" uninstall -q -y setuptools
install "$work/plain" "missing: setuptools>=61, wheel;" "-m pip install 'setuptools>=61' wheel"

# setuptools and wheel from the system (Debian's python3-setuptools, python3-wheel), but no
# CMake, compiler or make on PATH: the tools a new CMake tree needs are named before any build.
if "$python" -c 'import setuptools, wheel' 2>/dev/null; then
  "$python" -m venv --system-site-packages "$work/system"
  how=("install them with")
  [ ! -x /usr/bin/apt-get ] || how=("\`apt-get install cmake g++ gcc make\`")
  pip_path=$work/bin install "$work/system" "missing: CMake>=" "a C++20 compiler" "a C compiler" \
    "ninja or make" "${how[@]}"
fi
echo "package test: PASS"
