#!/usr/bin/env bash
# The whole test suite (README command 2; .ci/run runs exactly this). GPU tests are labelled
# `gpu` and skipped here; tests/gpu/run.sh runs them on a GPU machine.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --if-missing
jobs=$(nproc)

# 1. Release build, warnings as errors: every unit, compat, fuzz-corpus, Python and launcher test.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPROTON_WERROR=ON >/dev/null
cmake --build build -j "$jobs"
ctest --test-dir build -LE gpu --output-on-failure -j "$jobs"

# 2. AddressSanitizer + UndefinedBehaviorSanitizer: the C++ tests, the viewer's compat and
#    error cases and the fuzz corpora run again, so bad input can never crash silently.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPROTON_WERROR=ON \
  -DPROTON_SANITIZE=address -DPROTON_BUILD_PYTHON=OFF -DPROTON_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j "$jobs"
ctest --test-dir build-asan -L 'viewer|core|fuzz' -LE gpu --output-on-failure -j "$jobs"
