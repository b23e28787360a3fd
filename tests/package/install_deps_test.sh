#!/usr/bin/env bash
# scripts/install-deps.sh (ctest package_install_deps, label package), without network or root:
# 1. the packages chosen for each os-release of tests/package/os-release (Debian 12, Ubuntu
#    22.04, 24.04, and an uncovered system that gets Debian's names);
# 2. where packages cannot be installed (PROTON_NO_INSTALL=1, not root, apt's repositories
#    unreachable, a name that does not resolve, no apt at all): one line naming what is missing
#    with the `apt-get install` line, exit 0 for --main and 1 for --test, within seconds. apt-get,
#    dpkg-query and id are fakes on PATH; no compiler, CMake or Python is on it, so every main
#    package is missing.
#   tests/package/install_deps_test.sh SOURCE_DIR WORK_DIR
set -euo pipefail
source_dir=$(cd "$1" && pwd) work=$2
script=$source_dir/scripts/install-deps.sh
fixtures=$source_dir/tests/package/os-release

fail() { echo "install-deps test: FAIL: $*" >&2; exit 1; }
has() { [[ " $1 " == *" $2 "* ]]; }

# ---- 1. the package lists ---------------------------------------------------------------------
list() { PROTON_OS_RELEASE=$fixtures/$1 "$script" --print "--$2"; }
debian_main="build-essential cmake ninja-build pkg-config libsimdjson-dev libpcre2-dev libiberty-dev rapidjson-dev libsqlite3-dev python3-dev"
[ "$(list debian12 main)" = "$debian_main" ] || fail "Debian 12 main: $(list debian12 main)"
[ "$(list ubuntu2404 main)" = "$debian_main" ] || fail "Ubuntu 24.04 main: $(list ubuntu2404 main)"
[ "$(list fedora40 main)" = "$debian_main" ] || fail "an uncovered system gets Debian's names"
[ "$(list ubuntu2204 main)" = "${debian_main/libsimdjson-dev /}" ] ||
  fail "Ubuntu 22.04 main (no simdjson: 1.0.2 is too old): $(list ubuntu2204 main)"
for distro in debian12 ubuntu2204 ubuntu2404 fedora40; do
  main=$(list $distro main) test=$(list $distro test)
  for p in $main; do
    has "$test" "$p" || fail "$distro: --test lacks the main package $p"
  done
  for p in chromium chromium-browser chromium-driver chromium-chromedriver firefox; do
    ! has "$main" "$p" || fail "$distro: the main path has $p"
  done
  for p in libgtest-dev libgmock-dev libbenchmark-dev python3-pytest universal-ctags valgrind protobuf-compiler git; do
    has "$test" "$p" || fail "$distro: --test lacks $p"
  done
done
for p in chromium chromium-driver python3-selenium clang libclang-rt-14-dev clang-tidy clang-format; do
  has "$(list debian12 test)" "$p" || fail "Debian 12 --test lacks $p"
done
for distro in ubuntu2204 ubuntu2404; do
  test=$(list $distro test)
  for p in clang-14 clang-tidy-14 clang-format-14; do
    has "$test" "$p" || fail "$distro --test lacks $p"
  done
  for p in chromium chromium-driver python3-selenium clang; do
    ! has "$test" "$p" || fail "$distro --test has $p (a snap, or not clang 14)"
  done
done
has "$(list ubuntu2204 test)" libclang-common-14-dev || fail "Ubuntu 22.04: clang 14's runtimes"
has "$(list ubuntu2404 test)" libclang-rt-14-dev || fail "Ubuntu 24.04: clang 14's runtimes"
! has "$(list ubuntu2204 test)" libclang-rt-14-dev || fail "Ubuntu 22.04 has no libclang-rt-14-dev"
echo "install-deps test: package lists per distribution: ok"

# ---- 2. where packages cannot be installed ----------------------------------------------------
rm -rf "$work" && mkdir -p "$work/bin" "$work/state"
for tool in bash sed head grep dirname timeout cat env touch; do
  ln -s "$(command -v $tool)" "$work/bin/$tool"
done
# dpkg-query: installed when $state/<name> exists. id -u: $FAKE_UID. apt-get: logs its
# arguments; `update` reaches no repository when FAKE_APT=offline, all but one when
# FAKE_APT=partial (installing goes on); `install` of one package succeeds unless it
# is $FAKE_APT_MISSING, of several fails as apt does when one name does not resolve.
cat >"$work/bin/dpkg-query" <<EOF
#!$(command -v bash)
[ -e "$work/state/\${@: -1}" ] && echo "install ok installed"
EOF
cat >"$work/bin/id" <<'EOF'
#!/bin/sh
echo "${FAKE_UID:-0}"
EOF
cat >"$work/bin/apt-get" <<EOF
#!$(command -v bash)
echo "\$*" >>"$work/apt.log"
if [ "\$1" = update ]; then
  if [ "\${FAKE_APT:-}" = offline ]; then
    echo "Err:1 http://archive.ubuntu.com/ubuntu noble InRelease"
    echo "  Temporary failure resolving 'archive.ubuntu.com'"
    echo "W: Failed to fetch http://archive.ubuntu.com/ubuntu/dists/noble/InRelease"
    exit 0  # apt 2.7 (Ubuntu 24.04) exits 0 when no repository answers
  fi
  echo "Hit:1 http://deb.debian.org/debian bookworm InRelease"
  [ "\${FAKE_APT:-}" != partial ] || echo "W: Failed to fetch https://developer.download.nvidia.com/compute/cuda/repos/InRelease"
  exit 0
fi
packages=(); for a in "\$@"; do [[ \$a == -* || \$a == *=* || \$a == install ]] || packages+=("\$a"); done
if [ "\${#packages[@]}" -gt 1 ]; then echo "E: Unable to locate package \$FAKE_APT_MISSING" >&2; exit 100; fi
[ "\${packages[0]}" != "\${FAKE_APT_MISSING:-}" ] || { echo "E: Unable to locate package \${packages[0]}" >&2; exit 100; }
touch "$work/state/\${packages[0]}"
EOF
chmod +x "$work/bin/"*
mkdir -p "$work/noapt" && cp -a "$work/bin/." "$work/noapt/" && rm "$work/noapt/apt-get"

# run PATH_DIR WHAT EXPECTED_STATUS: runs install-deps with only PATH_DIR on PATH (Debian 12's
# names) and checks its status, its time and its one line; leaves that line in $line.
run() {
  local dir=$1 what=$2 expected=$3 status=0 start=$SECONDS
  rm -f "$work/apt.log" "$work/state/"*
  out=$(PATH=$dir PROTON_OS_RELEASE=$fixtures/debian12 "$(command -v bash)" "$script" "--$what" 2>&1) ||
    status=$?
  [ "$status" = "$expected" ] || fail "--$what exited $status, not $expected: $out"
  ((SECONDS - start <= 20)) || fail "--$what took $((SECONDS - start)) s"
  line=$(grep '^install-deps: missing ' <<<"$out") || fail "no 'missing' line: $out"
  [ "$(wc -l <<<"$line")" = 1 ] || fail "more than one 'missing' line: $out"
}
all_main=$debian_main
PROTON_NO_INSTALL=1 run "$work/bin" main 0
[[ $line == *"missing $all_main (PROTON_NO_INSTALL=1); with package access, as root: apt-get install $all_main" ]] ||
  fail "PROTON_NO_INSTALL=1: $line"
[ ! -e "$work/apt.log" ] || fail "PROTON_NO_INSTALL=1 ran apt-get"
PROTON_NO_INSTALL=1 run "$work/bin" test 1
FAKE_UID=1000 run "$work/bin" main 0
[[ $line == *"(not root)"* ]] || fail "not root: $line"
[ ! -e "$work/apt.log" ] || fail "not root, apt-get ran"
FAKE_APT=offline run "$work/bin" main 0
[[ $line == *"(apt-get update failed: no package repository reachable)"* ]] || fail "offline: $line"
grep -q "Acquire::http::Timeout=10" "$work/apt.log" || fail "apt-get update ran without a network timeout"
! grep -q "^install" "$work/apt.log" || fail "offline, apt-get install ran"
grep -q "install-deps: apt: .*Failed to fetch\|install-deps: apt: Err:1" <<<"$out" || fail "apt's error is not shown: $out"
FAKE_APT=partial FAKE_APT_MISSING=libsimdjson-dev run "$work/bin" main 0
[[ $line == *"missing libsimdjson-dev (apt could not install them); with package access, as root: apt-get install libsimdjson-dev" ]] ||
  fail "one unresolvable name must not keep the others out: $line"
run "$work/noapt" main 0
[[ $line == *"(no apt-get here; install their equivalents)"* ]] || fail "no apt: $line"
notes=$(PATH=$work/bin PROTON_NO_INSTALL=1 PROTON_OS_RELEASE=$fixtures/fedora40 "$(command -v bash)" "$script" 2>&1 || true)
grep -q "^install-deps: Fedora Linux 40 (Container Image) is not a covered distribution" <<<"$notes" ||
  fail "no note for an uncovered system: $notes"
notes=$(PATH=$work/bin PROTON_NO_INSTALL=1 PROTON_OS_RELEASE=$fixtures/ubuntu2204 "$(command -v bash)" "$script" 2>&1 || true)
grep -q "^install-deps: Ubuntu 22.04's simdjson (1.0.2) is older" <<<"$notes" || fail "no simdjson note: $notes"
echo "install-deps test: PASS"
