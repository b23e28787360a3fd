#!/usr/bin/env bash
# Installs the built proton Python module into a Python environment, offline:
#   scripts/install-python.sh [PYTHON] [BUILD_DIR]
# PYTHON (default: python3 on PATH) is the interpreter of the target environment (a venv's
# bin/python installs into that venv; a system python installs with --user semantics unless
# it is run as root). BUILD_DIR (default: build) must hold a build whose proton._C matches
# PYTHON's version; if it does not, the module is rebuilt for PYTHON in BUILD_DIR-py<X.Y>.
# It copies <BUILD_DIR>/python/proton (the package, proton._C, proton._viewer when the viewer
# is built, and libproton.so next to them: _C's RPATH includes $ORIGIN) and proton_bootstrap
# into PYTHON's site-packages.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${1:-python3}
build=${2:-build}
command -v "$python" >/dev/null || { echo "install-python: error: $python not found" >&2; exit 1; }

suffix=$("$python" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
if ! ls "$build"/python/proton/_C"$suffix" >/dev/null 2>&1; then
  echo "install-python: $build has no proton._C for Python $version; building $build-py$version" >&2
  build="$build-py$version"
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DPython3_EXECUTABLE="$(command -v "$python")" -DPROTON_BUILD_PYTHON=ON >/dev/null
  cmake --build "$build" --target proton_python proton_python_files
fi
# proton._viewer (the Python viewer API) exists where the viewer is built; build it if stale.
if cmake --build "$build" --target help 2>/dev/null | grep -q '^proton_python_viewer:'; then
  cmake --build "$build" --target proton_python_viewer
fi
[ -f "$build/python/proton/_C$suffix" ] || { echo "install-python: error: build of proton._C failed" >&2; exit 1; }

target=$("$python" - <<'PY'
import os, site, sys, sysconfig
in_venv = sys.prefix != sys.base_prefix
writable = os.access(sysconfig.get_paths()["purelib"], os.W_OK)
print(sysconfig.get_paths()["purelib"] if in_venv or writable else site.getusersitepackages())
PY
)
mkdir -p "$target"
rm -rf "$target/proton" "$target/proton_bootstrap"
cp -r "$build/python/proton" "$target/proton"
[ -d "$build/python/proton_bootstrap" ] && cp -r "$build/python/proton_bootstrap" "$target/"
cp -P "$build"/lib/libproton.so* "$target/proton/"
find "$target/proton" -name '__pycache__' -prune -exec rm -rf {} +
(cd / && "$python" -c 'import proton, sys; print("installed proton into", proton.__path__[0])')
if ls "$target"/proton/_viewer*.so >/dev/null 2>&1; then
  (cd / && "$python" -c 'import proton._viewer') || { echo "install-python: error: proton._viewer does not load" >&2; exit 1; }
else
  echo "install-python: proton._viewer is not built: the proton.viewer functions need it" >&2
fi
