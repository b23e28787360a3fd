#!/usr/bin/env bash
# Installs the Debian 12 packages needed to build and test proton. Idempotent; as root.
# --if-missing: do nothing when every package is already installed (used by the test script).
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config git
  clang libclang-rt-14-dev           # fuzzers (libFuzzer) and sanitizers
  libsimdjson-dev libpcre2-dev libmsgpack-cxx-dev   # viewer: JSON, regex, MessagePack
  libiberty-dev                                     # viewer: the bounded C++ demangler
  rapidjson-dev                                     # viewer: JSON over 4 GiB, streamed
  libsqlite3-dev                                    # viewer: --export FILE.sqlite, --sql
  libgtest-dev libgmock-dev libbenchmark-dev        # unit tests, benchmarks
  python3 python3-dev python3-pytest                # the Python module and its tests
  python3-pandas                                    # tests of gf.dataframe (proton.viewer)
  chromium chromium-driver python3-selenium         # viewer --html: tests in a headless browser
  python3-jsonschema                                # viewer --speedscope: files checked against the schema
  python3-venv python3-pip python3-setuptools python3-wheel   # pip install . (offline)
  python3-pyflakes                                  # the python_pyflakes check
  universal-ctags                                   # the function_length check
  clang-format clang-tidy                           # the clang_format check, the clang-tidy build
  valgrind                                          # bench/core: cachegrind and callgrind counts
)
if [ "${1:-}" = "--if-missing" ]; then
  missing=0
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing=1
  done
  [ "$missing" = 0 ] && exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "install-deps: run as root (or install: ${packages[*]})" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${packages[@]}"
