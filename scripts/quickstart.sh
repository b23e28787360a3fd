#!/usr/bin/env bash
# README command 1: installs what the main job needs (scripts/install-deps.sh --main), builds
# what can be built, shows the bundled real profiles in proton-viewer, and on a machine with an
# NVIDIA GPU profiles examples/vector_add.py.
#
# Without root or package access (PROTON_NO_INSTALL=1 does the same) it builds with what is
# installed: a part whose dependencies are missing is skipped with one line naming them and
# the `apt-get install` line that brings them (the profiler side needs only a C++20 compiler,
# CMake and, for Python scripts, the Python's headers; ninja or make). The Python module is
# built for the first python3 on PATH when it has its headers (a venv with PyTorch), else for
# /usr/bin/python3. PROTON_CMAKE_ARGS adds arguments to the CMake configure step (e.g.
# -DPROTON_CUDA_ROOT=/opt/cuda, or -DCMAKE_DISABLE_FIND_PACKAGE_simdjson=ON to see the
# viewer skipped).
#
# Exit status: 0 when everything that could be built was built and, on a GPU machine, the
# example's profile was written; 1 when the build or the GPU profiling failed.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/packages.sh
source scripts/lib/quickstart-steps.sh
build=build

scripts/install-deps.sh --main || qs_say "install-deps failed: building with what is installed"
python=$(qs_pick_python)
qs_say "Python for the module and for 'proton script.py': $python"
first_python=$(command -v python3 || true)
if [ -n "$first_python" ] && [ "$first_python" != "$python" ]; then
  qs_say "note: $first_python has no headers (Python.h): run scripts as PROTON_PYTHON=$python build/bin/proton script.py"
fi
qs_configure "$build" "$python" || exit 1
if ! cmake --build "$build" -j "$(nproc)"; then
  qs_say "error: the build failed (its errors are above)"
  exit 1
fi
qs_skip_lines "$build" "$(proton_distro)" "$python"
qs_view_bundled "$build"
if qs_has_gpu && [ -x "$build/bin/proton" ]; then
  qs_profile_example "$build" "$python"
  exit $?
fi
qs_say "no NVIDIA GPU here (nvidia-smi -L): skipped profiling examples/vector_add.py"
