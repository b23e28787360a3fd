# The steps of scripts/quickstart.sh, as functions that tests/package/quickstart_test.sh also
# runs in a fake environment (fake PATH, build directory and GPU). Needs scripts/lib/packages.sh.
# Every message is one line starting with "quickstart: ".

qs_say() { echo "quickstart: $*"; }

# The Python that proton's module is built for and that `proton script.py` runs: the first
# python3 on PATH (a venv with PyTorch) when it has its headers, else /usr/bin/python3 when it
# has them, else the first python3 (CMake then skips the module and says why).
qs_pick_python() {
  local first
  first=$(command -v python3 || true)
  if [ -n "$first" ] && proton_python_has_headers "$first"; then
    echo "$first"
  elif proton_python_has_headers /usr/bin/python3; then
    echo /usr/bin/python3
  else
    echo "${first:-/usr/bin/python3}"
  fi
}

# CMake's generator for a new build tree: Ninja, else Unix Makefiles; fails with neither.
qs_generator() {
  if command -v ninja >/dev/null 2>&1; then
    echo Ninja
  elif command -v make >/dev/null 2>&1; then
    echo "Unix Makefiles"
  else
    return 1
  fi
}

# Configures BUILD for the main job (no unit tests, no benchmarks) for PYTHON, with the
# arguments of PROTON_CMAKE_ARGS (split at spaces) last.
qs_configure() {
  local build=$1 python=$2 generator log=$1/quickstart-configure.log extra=()
  local args=(-S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DPROTON_BUILD_TESTS=OFF
              -DPROTON_BUILD_BENCH=OFF)
  read -r -a extra <<<"${PROTON_CMAKE_ARGS:-}"
  if ! command -v cmake >/dev/null 2>&1; then
    qs_say "error: cmake is not installed: apt-get install cmake (or python3 -m pip install cmake)"
    return 1
  fi
  [ -z "$python" ] || args+=(-DPython3_EXECUTABLE="$python")
  if [ ! -f "$build/CMakeCache.txt" ]; then
    if ! generator=$(qs_generator); then
      qs_say "error: neither ninja nor make is installed: apt-get install ninja-build (or make)"
      return 1
    fi
    args+=(-G "$generator")
  fi
  mkdir -p "$build"
  if ! cmake "${args[@]}" "${extra[@]}" >"$log" 2>&1; then
    tail -n 30 "$log"
    qs_say "error: configuring $build failed (the end of $log is above)"
    return 1
  fi
  grep -E '^-- proton: (skipped|viewer=)' "$log" | sed 's/^-- //'
}

# What a skipped part is, in words.
qs_part_words() {
  case "$1" in
    viewer) echo "proton-viewer and proton.viewer" ;;
    python) echo "the Python module proton._C (proton script.py, import proton)" ;;
    cupti) echo "the CUPTI backend (kernel times on NVIDIA GPUs)" ;;
    tests) echo "the C++ unit tests" ;;
    bench) echo "the benchmarks" ;;
    *) echo "$1" ;;
  esac
}

# The apt package with PYTHON's headers: python3.X-dev for the distribution's own Python
# (a venv made from it included), nothing for another (conda's, uv's: they carry their own).
qs_python_headers_package() {
  local python=$1 prefix version
  prefix=$("$python" -c 'import sys; print(sys.base_prefix)' 2>/dev/null) || return 0
  version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)
  [ "$prefix" = /usr ] && echo "python$version-dev"
  return 0
}

# How to bring what one skipped part misses: the apt line, and what no package brings.
qs_part_fix() {
  local distro=$1 python=$2 keys=$3 key package packages=() others=()
  for key in $keys; do
    if [ "$key" = python-headers ] && [ -n "$python" ]; then
      package=$(qs_python_headers_package "$python")
      [ -n "$package" ] || others+=("the headers of $python (Python.h) from where that Python came from")
    elif [ "$key" = cuda-headers ]; then
      # PROTON_CUDA_ROOT, not CUDA_HOME: CMake reads CUDA_HOME only when a tree is new.
      package="" others+=("a CUDA toolkit with CUPTI (PROTON_CMAKE_ARGS=-DPROTON_CUDA_ROOT=<its directory>)")
    else
      package=$(proton_package_for_key "$distro" "$key")
      [ -n "$package" ] || others+=("$key, which this distribution does not package in a usable version")
    fi
    [ -z "$package" ] || packages+=($package)  # unquoted: gtest is two packages
  done
  local text="" other
  [ "${#packages[@]}" = 0 ] || text="apt-get install ${packages[*]}"
  for other in "${others[@]}"; do
    text="${text:+$text, and }$other"
  done
  echo "$text"
}

# One line per part that BUILD skipped for missing dependencies, with the fix.
qs_skip_lines() {
  local build=$1 distro=$2 python=$3 part built keys words
  [ -f "$build/proton-parts.txt" ] || return 0
  while IFS='|' read -r part built keys words; do
    [ "$built" = OFF ] && [ -n "$keys" ] || continue
    qs_say "skipped $(qs_part_words "$part"): missing $words; to build it: $(qs_part_fix "$distro" "$python" "$keys"), then run scripts/quickstart.sh again"
  done <"$build/proton-parts.txt"
}

# Whether BUILD built PART.
qs_part_built() { grep -q "^$2|ON|" "$1/proton-parts.txt" 2>/dev/null; }

# The bundled real profiles through the viewer, or where to view a profile instead.
qs_view_bundled() {
  local build=$1
  if [ ! -x "$build/bin/proton-viewer" ]; then
    qs_say "no proton-viewer here: a profile written on this machine can be viewed on any machine that has proton-viewer (copy the .hatchet file there)"
    return 0
  fi
  echo "== proton-viewer: GPT-2 training step recorded with Triton 3.6 on an H200 =="
  "$build/bin/proton-viewer" -m time/ms,time/%,count -d 2 examples/gpt2_shadow.hatchet
  echo "== the Triton launch hook profile: time and achieved bandwidth =="
  "$build/bin/proton-viewer" -m time/us,gbyte/s,tflop32/s examples/ref_hook.hatchet
}

qs_has_gpu() { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; }

# Shows a profile the example wrote: with proton-viewer where it was built, else a short
# summary by PYTHON (scripts/lib/hatchet_summary.py).
qs_show_profile() {
  local build=$1 python=$2 profile=$3
  if [ -x "$build/bin/proton-viewer" ]; then
    "$build/bin/proton-viewer" -m time/us,count "$profile"
  else
    "$python" scripts/lib/hatchet_summary.py "$profile" || true
    qs_say "view it in full on a machine with proton-viewer: proton-viewer -m time/us,count $(basename "$profile")"
  fi
}

# Profiles examples/vector_add.py under BUILD's proton with PYTHON; 0 when the profile was
# written, 1 when profiling failed; 0 with a line when PYTHON has no PyTorch (nothing to run).
qs_profile_example() {
  local build=$1 python=$2 profile=$1/quickstart.hatchet status=0
  if ! qs_part_built "$build" python; then
    qs_say "error: cannot profile examples/vector_add.py: the Python module was not built (see the skipped line above)"
    return 1
  fi
  if ! "$python" -c 'import torch' >/dev/null 2>&1; then
    qs_say "$python has no PyTorch: skipped profiling examples/vector_add.py (put the Python that has it first on PATH and run scripts/quickstart.sh again)"
    return 0
  fi
  echo "== GPU found: profiling examples/vector_add.py with $python =="
  rm -f "$profile"
  PROTON_PYTHON=$python "$build/bin/proton" -n "$build/quickstart" examples/vector_add.py || status=$?
  if [ "$status" -ne 0 ]; then
    qs_say "error: profiling examples/vector_add.py failed (exit status $status)"
    return 1
  fi
  if [ ! -s "$profile" ]; then
    qs_say "error: proton exited 0 but wrote no $profile"
    return 1
  fi
  qs_say "wrote $profile"
  qs_show_profile "$build" "$python" "$profile"
}
