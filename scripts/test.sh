#!/usr/bin/env bash
# The whole test suite (README command 2; .ci/run runs exactly this). GPU tests are labelled
# `gpu` and skipped here; tests/gpu/run.sh runs them on a GPU machine.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test   # the main job's packages and the test tools; fails when any is missing
jobs=$(nproc)
# The suite is checked with clang 14 (Debian 12's; docs/design.md). Ubuntu's test packages
# bring it as clang-14, whose unversioned clang, clang-tidy and clang-format live here.
if [ -d /usr/lib/llvm-14/bin ]; then
  export PATH=/usr/lib/llvm-14/bin:$PATH
fi
# Every part is required here (a missing dependency is a configure error, not a smaller
# suite), whatever a build tree's cache holds from scripts/quickstart.sh, which turns the
# tests off; benchmarks are built where Google Benchmark is (cmake/ProtonDeps.cmake).
parts=(-DPROTON_BUILD_TESTS=ON -DPROTON_BUILD_VIEWER=ON -DPROTON_BUILD_PYTHON=ON
       -DPROTON_BUILD_BENCH=AUTO)
# ccache, where installed, makes a second run of this script rebuild only what changed.
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

# 1. Release build, warnings as errors: every unit, compat, fuzz-corpus, Python and launcher test.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPROTON_WERROR=ON "${parts[@]}" \
  "${launcher[@]}" >/dev/null
cmake --build build -j "$jobs"
ctest --test-dir build -LE gpu --output-on-failure -j "$jobs"

# 2. clang 14 (Debian 12's) with AddressSanitizer + UndefinedBehaviorSanitizer, warnings as
#    errors (the lock analysis, -Wthread-safety, included), every component. One tree serves
#    three checks (docs/design.md: the CI's time):
#    - clang-tidy (.clang-tidy: bugprone, performance, naming) over all of src/'s sources, the
#      unit tests included, from this tree's compile commands, failing on any finding;
#    - every CPU label under the sanitizers: the C++ unit tests, the viewer's compat and error
#      cases, the fuzz corpora, the CUPTI backend on the fake CUPTI, and the Python, launcher,
#      injection, adversarial and --html page tests, where our instrumented libraries run
#      inside python3 with the sanitizer runtime preloaded (proton_preload_sanitizer_runtime,
#      cmake/ProtonOptions.cmake).
#    Left out of the tests: style (reads the sources, runs none of our code: stage 1 has its
#    answer) and package (pip-packages the build tree; the code it then runs is the python and
#    launcher tests' own, so under ASan it would only repeat them at pip's cost).
#    -O1 and line tables only (what ASan's reports need) compile faster than -O2 -g.
clang_flags="-O1 -gline-tables-only -DNDEBUG"
cmake -S . -B build-clang -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPROTON_WERROR=ON \
  -DPROTON_SANITIZE=address -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="$clang_flags" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$clang_flags" \
  "${parts[@]}" "${launcher[@]}" >/dev/null
cmake --build build-clang -j "$jobs"
#    clang-tidy keeps the cores busy while the sanitized tests wait on processes and pipes
#    (they use about half of the cores on their own): both run at once, and either failing
#    fails the stage, clang-tidy's findings printed after the tests.
tidy_log=build-clang/clang-tidy.log
scripts/clang_tidy.sh build-clang >"$tidy_log" 2>&1 &
tidy_pid=$!
tests_status=0
ctest --test-dir build-clang -LE '^(gpu|style|package)$' --output-on-failure -j "$jobs" ||
  tests_status=$?
tidy_status=0
wait "$tidy_pid" || tidy_status=$?
if [ "$tidy_status" -ne 0 ]; then
  grep -v -e '^clang-tidy-[0-9]* ' -e ' warnings\? generated\.$' "$tidy_log" >&2 || true
  echo "clang-tidy failed (exit $tidy_status); full log: $tidy_log" >&2
fi
if [ "$tests_status" -ne 0 ] || [ "$tidy_status" -ne 0 ]; then exit 1; fi

# 3. ThreadSanitizer: the multi-threaded C++ tests: core (correlation ring, context caches,
#    sessions), cupti (the backend on the fake CUPTI), the reader's read-ahead thread and
#    --merge's loader threads. Only their executables are built (docs/design.md: why these,
#    and the time). Any report fails the test that made it (halt_on_error, exit code 66).
#    -O1 and line tables (-g1), as in stage 2: TSan's reports need no more.
tsan_flags="-O1 -g1 -DNDEBUG"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPROTON_WERROR=ON \
  -DPROTON_SANITIZE=thread -DPROTON_BUILD_TESTS=ON -DPROTON_BUILD_VIEWER=ON \
  -DPROTON_BUILD_PYTHON=OFF -DPROTON_BUILD_BENCH=OFF \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="$tsan_flags" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$tsan_flags" \
  "${launcher[@]}" >/dev/null
tsan_options=halt_on_error=1:exitcode=66:second_deadlock_stack=1
export TSAN_OPTIONS="$tsan_options${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
# Some kernels map memory where this TSan runtime cannot shadow it (vm.mmap_rnd_bits > 28):
# then everything that runs an instrumented binary (ctest, and the build's test discovery)
# runs without address randomization.
tsan_run=$(scripts/tsan-check.sh build-tsan)
$tsan_run cmake --build build-tsan -j "$jobs" \
  --target proton_core_test proton_cupti_tests proton_format_tests proton_viewer_loader_tests
$tsan_run ctest --test-dir build-tsan -L 'core|cupti' -LE gpu --output-on-failure -j "$jobs"
$tsan_run ctest --test-dir build-tsan -R '^(Reader[A-Za-z]*|JsonFastReader|ReadAhead|InOrderLoader)\.' \
  --output-on-failure -j "$jobs"
