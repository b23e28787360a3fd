#!/usr/bin/env bash
# scripts/quickstart.sh's decisions (ctest package_quickstart, label package), in a fake
# environment (scripts/lib/quickstart-steps.sh's functions with fake PATH, Pythons, build
# trees and GPU), without building anything:
# 1. one line per part skipped for missing dependencies, with the packages that bring them,
#    per distribution; from a real CMake configure too, where simdjson is hidden from it;
# 2. the generator (Ninja, else Unix Makefiles) and the Python (the first python3 on PATH
#    with headers, else /usr/bin/python3);
# 3. the GPU step: a profile written is exit status 0 and shown, a failed or missing one 1.
#   tests/package/quickstart_test.sh SOURCE_DIR WORK_DIR
set -euo pipefail
source_dir=$(cd "$1" && pwd) work=$2
fixtures=$source_dir/tests/package/os-release
source "$source_dir/scripts/lib/packages.sh"
source "$source_dir/scripts/lib/quickstart-steps.sh"
real_python=$(command -v python3)
bash_path=$(command -v bash)

fail() { echo "quickstart test: FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
cd "$work"

# fake_python DIR HEADERS TORCH: a python3 in DIR whose headers and torch exist or not (yes/no),
# a distribution Python 3.12 for the rest; the hatchet summary runs in the real Python.
fake_python() {
  mkdir -p "$1"
  cat >"$1/python3" <<EOF
#!$bash_path
case "\$*" in
  *Python.h*) [ "$2" = yes ] ;;
  *"import torch"*) [ "$3" = yes ] ;;
  *base_prefix*) echo /usr ;;
  *version_info*) echo 3.12 ;;
  *) exec "$real_python" "\$@" ;;
esac
EOF
  chmod +x "$1/python3"
}

# ---- 1. skipped parts and their fix -----------------------------------------------------------
mkdir -p parts
printf '%s\n' "viewer|OFF|simdjson pcre2|simdjson >= 3.0 (found 1.0.2), PCRE2 (libpcre2-8)" \
  "python|OFF|python-headers|the headers of /x/python3 (Python.h)" \
  "cupti|OFF|cuda-headers|CUDA and CUPTI headers" "tests|OFF||" "bench|ON||" >parts/proton-parts.txt
fake_python py312 no no
lines=$(qs_skip_lines parts debian12 "$work/py312/python3")
[ "$(wc -l <<<"$lines")" = 3 ] || fail "expected 3 skipped lines: $lines"
grep -qx "quickstart: skipped proton-viewer and proton.viewer: missing simdjson >= 3.0 (found 1.0.2), PCRE2 (libpcre2-8); to build it: apt-get install libsimdjson-dev libpcre2-dev, then run scripts/quickstart.sh again" <<<"$lines" ||
  fail "viewer line: $lines"
grep -q "skipped the Python module .*apt-get install python3.12-dev," <<<"$lines" || fail "python line: $lines"
grep -q "skipped the CUPTI backend .*a CUDA toolkit with CUPTI (PROTON_CMAKE_ARGS=-DPROTON_CUDA_ROOT=" <<<"$lines" ||
  fail "cupti line: $lines"
jammy=$(qs_skip_lines parts ubuntu2204 "$work/py312/python3" | grep proton-viewer)
[[ $jammy == *"apt-get install libpcre2-dev, and simdjson, which this distribution does not package"* ]] ||
  fail "Ubuntu 22.04 viewer line: $jammy"
[ -z "$(qs_skip_lines no-such-dir debian12 python3)" ] || fail "lines without a build tree"

# The same from CMake: simdjson hidden, then found again (AUTO decides at every configure).
if command -v cmake >/dev/null && dpkg-query -W libsimdjson-dev >/dev/null 2>&1; then
  cmake -S "$source_dir" -B cmake-tree -DPROTON_BUILD_TESTS=OFF -DPROTON_BUILD_BENCH=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_simdjson=ON >cmake.log 2>&1 || fail "configure: $(tail cmake.log)"
  grep -q "^-- proton: skipped viewer: missing simdjson >= 3.0$" cmake.log || fail "no CMake skip line"
  line=$(qs_skip_lines cmake-tree debian12 "$real_python")
  [[ $line == *"missing simdjson >= 3.0; to build it: apt-get install libsimdjson-dev, then"* ]] ||
    fail "from CMake: $line"
  cmake -S "$source_dir" -B cmake-tree -DCMAKE_DISABLE_FIND_PACKAGE_simdjson=OFF >cmake.log 2>&1 ||
    fail "reconfigure: $(tail cmake.log)"
  grep -q "^viewer|ON|" cmake-tree/proton-parts.txt || fail "the viewer stayed off once simdjson was found"
  ! cmake -S "$source_dir" -B cmake-tree -DCMAKE_DISABLE_FIND_PACKAGE_simdjson=ON \
    -DPROTON_BUILD_VIEWER=ON >cmake.log 2>&1 || fail "PROTON_BUILD_VIEWER=ON without simdjson configured"
  grep -q "PROTON_BUILD_VIEWER=ON, but viewer needs simdjson" cmake.log || fail "no ON error: $(cat cmake.log)"
fi

# ---- 2. generator and Python ------------------------------------------------------------------
mkdir -p tools/none tools/make tools/ninja
printf '#!/bin/sh\n' >tools/make/make && printf '#!/bin/sh\n' >tools/ninja/ninja
cp tools/make/make tools/ninja/make && chmod +x tools/*/*
[ "$(PATH=$work/tools/ninja qs_generator)" = Ninja ] || fail "ninja not chosen"
[ "$(PATH=$work/tools/make qs_generator)" = "Unix Makefiles" ] || fail "no make fallback"
! PATH=$work/tools/none qs_generator >/dev/null || fail "a generator without ninja or make"
fake_python with-headers yes no
[ "$(PATH=$work/with-headers qs_pick_python)" = "$work/with-headers/python3" ] ||
  fail "the first python3 with headers was not chosen"
if proton_python_has_headers /usr/bin/python3; then
  [ "$(PATH=$work/py312 qs_pick_python)" = /usr/bin/python3 ] || fail "no fallback to /usr/bin/python3"
fi

# ---- 3. the GPU step ----------------------------------------------------------------------------
mkdir -p gpu/ok gpu/bad
printf '#!/bin/sh\necho "GPU 0: NVIDIA H200"\n' >gpu/ok/nvidia-smi
printf '#!/bin/sh\necho "NVIDIA-SMI has failed"; exit 9\n' >gpu/bad/nvidia-smi
chmod +x gpu/*/nvidia-smi
PATH=$work/gpu/ok:$PATH qs_has_gpu || fail "nvidia-smi -L works, but no GPU"
! PATH=$work/gpu/bad:$PATH qs_has_gpu || fail "nvidia-smi -L fails, but a GPU"
! PATH=$work/tools/none qs_has_gpu || fail "no nvidia-smi, but a GPU"

# A build tree whose proton writes NAME.hatchet (or not: FAKE_PROTON=fail, empty) and records
# the Python it was given.
mkdir -p tree/bin examples
printf '%s\n' "python|ON||" "viewer|OFF|simdjson|simdjson >= 3.0" >tree/proton-parts.txt
cat >tree/bin/proton <<EOF
#!$bash_path
echo "\$PROTON_PYTHON" >"$work/proton-python"
case "\${FAKE_PROTON:-}" in fail) exit 3 ;; empty) exit 0 ;; esac
echo '[{"frame": {"name": "ROOT"}, "metrics": {}, "children": [{"frame": {"name": "vector_add"}, "metrics": {"time (ns)": 5000, "count": 20}, "children": []}]}]' >"\$2.hatchet"
EOF
chmod +x tree/bin/proton
fake_python torch yes yes
mkdir -p scripts/lib && cp "$source_dir/scripts/lib/hatchet_summary.py" scripts/lib/
out=$(qs_profile_example tree "$work/torch/python3") || fail "a written profile is a failure: $out"
grep -q "^quickstart: wrote tree/quickstart.hatchet$" <<<"$out" || fail "no 'wrote' line: $out"
grep -q "^ *5.000 *20 *vector_add$" <<<"$out" || fail "the profile was not shown: $out"
grep -q "viewed .*proton-viewer\|proton-viewer -m time/us,count quickstart.hatchet" <<<"$out" ||
  fail "no word on viewing it elsewhere: $out"
[ "$(cat proton-python)" = "$work/torch/python3" ] || fail "proton ran another Python"
status=0; out=$(FAKE_PROTON=fail qs_profile_example tree "$work/torch/python3") || status=$?
[ "$status" = 1 ] && grep -q "failed (exit status 3)" <<<"$out" || fail "failed profiling: $status $out"
[ ! -e tree/quickstart.hatchet ] || fail "the last run's profile was left to count as this one's"
status=0; out=$(FAKE_PROTON=empty qs_profile_example tree "$work/torch/python3") || status=$?
[ "$status" = 1 ] && grep -q "wrote no tree/quickstart.hatchet" <<<"$out" || fail "no profile: $status $out"
out=$(qs_profile_example tree "$work/py312/python3") || fail "no torch is not a failure: $out"
grep -q "has no PyTorch: skipped profiling" <<<"$out" || fail "no torch: $out"
printf '%s\n' "python|OFF|python-headers|the headers" >tree/proton-parts.txt
status=0; out=$(qs_profile_example tree "$work/torch/python3") || status=$?
[ "$status" = 1 ] && grep -q "the Python module was not built" <<<"$out" || fail "no module: $status $out"
echo "quickstart test: PASS"
