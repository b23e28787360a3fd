#!/usr/bin/env bash
# The `proton` command with a fake CUDA driver and a fake CUPTI (no GPU): a Python script and a
# native program must run to completion (no deadlock between the Python bootstrap's session
# start and the driver's InitializeInjection on the same thread), the backend must subscribe
# once and finalize, and the profile must be written. The native target's finalize runs from C
# atexit, next to the fake CUPTI's own exit cleanup and the fake runtime's late context teardown
# (see fake_libcupti.cc): it must write its profile and then exit 0, without calling into CUPTI
# after that cleanup (it detaches: no unsubscribe/finalize at process exit, as NVIDIA's injection
# sample does) and without a freed backend receiving the teardown's callbacks.
# Usage: injection_cli_test.sh <build dir> <fake driver dir> <fake app>
set -u
BUILD=$1 FAKE=$2 APP=$3
PROTON=$BUILD/bin/proton
[ -x "$PROTON" ] || { echo "no $PROTON: skipped"; exit 77; }
[ -d "$BUILD/python/proton" ] || { echo "no python package: skipped"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/pkgs/triton"
: > "$T/pkgs/triton/__init__.py"
cat > "$T/s.py" <<'PY'
import triton.profiler as proton
with proton.scope("a"):
    pass
print("script ran")
PY
fail=0
check() {  # name, stderr file, stdout file, profile, expect cuptiFinalize (1/0)
  local name=$1 err=$2 out=$3 prof=$4 finalized=${5:-1}
  grep -q "ran" "$out" || { echo "FAIL $name: program did not run"; fail=1; }
  [ "$(grep -c '\[fakecupti\] subscribe' "$err")" = 1 ] || { echo "FAIL $name: not one subscription"; fail=1; }
  if [ "$finalized" = 1 ]; then
    grep -q '\[fakecupti\] finalize' "$err" || { echo "FAIL $name: CUPTI not finalized"; fail=1; }
  fi
  grep -q '\[fakecuda\] injection returned' "$err" || { echo "FAIL $name: injection did not return"; fail=1; }
  if grep -q 'could not start' "$err"; then echo "FAIL $name: session start failed"; fail=1; fi
  [ -s "$prof" ] || { echo "FAIL $name: no profile $prof"; fail=1; }
}
# In the ASan tree ctest preloads the sanitizer runtimes, as python3 is not instrumented
# (proton_preload_sanitizer_runtime, cmake/ProtonOptions.cmake).
export LD_LIBRARY_PATH="$FAKE${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PROTON_CUPTI_LIBRARY="$FAKE/libcupti.so"
(cd "$T" && PYTHONPATH="$T/pkgs" timeout 60 "$PROTON" -n "$T/py" s.py > "$T/py.out" 2> "$T/py.err")
rc=$?
[ $rc = 0 ] || { echo "FAIL python: exit $rc (124 = hung)"; fail=1; }
check python "$T/py.err" "$T/py.out" "$T/py.hatchet"
grep -q '"name": "a"' "$T/py.hatchet" 2>/dev/null || { echo "FAIL python: scope a missing"; fail=1; }
(cd "$T" && timeout 60 "$PROTON" -n "$T/native" "$APP" > "$T/native.out" 2> "$T/native.err")
rc=$?
[ $rc = 0 ] || { echo "FAIL native: exit $rc (124 = hung)"; fail=1; }
check native "$T/native.err" "$T/native.out" "$T/native.hatchet" 0
grep -q '\[fakecupti\] exit cleanup' "$T/native.err" || { echo "FAIL native: fake CUPTI exit cleanup did not run"; fail=1; }
if grep -q 'AddressSanitizer' "$T/native.err" "$T/py.err"; then echo "FAIL: sanitizer report"; fail=1; fi
if [ $fail != 0 ]; then
  echo "--- python stderr"; cat "$T/py.err"; echo "--- native stderr"; cat "$T/native.err"
  exit 1
fi
echo "PASS: python and native targets profiled through the fake driver's injection"
