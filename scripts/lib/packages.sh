# The distribution packages of the build (main) and of the test suite (test), per
# distribution, and the package of each dependency key that cmake/ProtonDeps.cmake writes into
# proton-parts.txt. Sourced by scripts/install-deps.sh, scripts/quickstart.sh and
# tests/package/install_deps_test.sh; defines functions only.
#
# Covered: Debian 12, Ubuntu 22.04, Ubuntu 24.04 (ID and VERSION_ID of /etc/os-release, or of
# the file PROTON_OS_RELEASE names); any other system gets Debian 12's names, with a note.
# Ubuntu names come from packages.ubuntu.com (docs/design.md, "Packages per distribution").

# One field of the os-release file, unquoted; empty when absent.
proton_os_field() {
  local file=${PROTON_OS_RELEASE:-/etc/os-release} value
  [ -r "$file" ] || return 0
  value=$(sed -n "s/^$1=//p" "$file" | head -n 1)
  value=${value#[\"\']}
  echo "${value%[\"\']}"
}

# debian12, ubuntu2204, ubuntu2404, or other.
proton_distro() {
  local id version
  id=$(proton_os_field ID)
  version=$(proton_os_field VERSION_ID)
  case "$id:$version" in
    debian:12) echo debian12 ;;
    ubuntu:22.04) echo ubuntu2204 ;;
    ubuntu:24.04) echo ubuntu2404 ;;
    *) echo other ;;
  esac
}

# A line about names chosen for this distribution, or nothing.
proton_distro_note() {
  local distro=$1 what=$2
  case "$distro" in
    other)
      local name
      name=$(proton_os_field PRETTY_NAME)
      echo "${name:-this system} is not a covered distribution (Debian 12, Ubuntu 22.04, 24.04): trying Debian 12's package names" ;;
    ubuntu2204)
      [ "$what" = test ] || echo "Ubuntu 22.04's simdjson (1.0.2) is older than the 3.0 that proton-viewer needs: the viewer is not built here; profiles written here can be viewed with proton-viewer on another machine" ;;
  esac
  if [ "$what" = test ] && [[ $distro == ubuntu* ]]; then
    echo "Ubuntu ships Chromium only as a snap: the browser tests (label browser) are skipped"
  fi
}

# What the main job needs: a compiler, CMake, a build tool, the viewer's libraries, the Python
# module's headers. Nothing that Ubuntu ships only as a snap.
proton_main_packages() {
  local viewer=(libsimdjson-dev libpcre2-dev libiberty-dev rapidjson-dev libsqlite3-dev)
  [ "$1" != ubuntu2204 ] || viewer=(libpcre2-dev libiberty-dev rapidjson-dev libsqlite3-dev)
  echo build-essential cmake ninja-build pkg-config "${viewer[@]}" python3-dev
}

# What the test suite adds to the main packages.
proton_test_packages() {
  local clang browser=()
  case "$1" in
    ubuntu2204) clang=(clang-14 libclang-common-14-dev clang-format-14 clang-tidy-14) ;;
    ubuntu2404) clang=(clang-14 libclang-rt-14-dev clang-format-14 clang-tidy-14) ;;
    *) clang=(clang libclang-rt-14-dev clang-format clang-tidy)
       browser=(chromium chromium-driver python3-selenium) ;;
  esac
  echo git "${clang[@]}" libgtest-dev libgmock-dev libbenchmark-dev \
    python3 python3-pytest python3-pandas python3-jsonschema python3-pyflakes \
    python3-venv python3-pip python3-setuptools python3-wheel \
    universal-ctags valgrind protobuf-compiler "${browser[@]}"
}

# The packages for what=main or what=test (main and test).
proton_packages() {
  local distro=$1 what=$2
  if [ "$what" = test ]; then
    echo "$(proton_main_packages "$distro") $(proton_test_packages "$distro")"
  else
    proton_main_packages "$distro"
  fi
}

# The package that brings a dependency key of proton-parts.txt, or nothing where the
# distribution has none (cuda-headers: NVIDIA's CUDA toolkit; simdjson on Ubuntu 22.04).
proton_package_for_key() {
  local distro=$1 key=$2
  case "$key" in
    simdjson) [ "$distro" = ubuntu2204 ] || echo libsimdjson-dev ;;
    rapidjson) echo rapidjson-dev ;;
    pcre2) echo libpcre2-dev ;;
    pkg-config) echo pkg-config ;;
    libiberty) echo libiberty-dev ;;
    python-headers) echo python3-dev ;;
    gtest) echo libgtest-dev libgmock-dev ;;
    benchmark) echo libbenchmark-dev ;;
  esac
}

# Whether a package's content is here: installed (dpkg), or, for the tools, on PATH in some
# other way (a CMake from pip or Kitware, a compiler from a module system), or, for
# python3-dev, the headers of the first python3 on PATH (a venv's or conda's Python).
proton_package_present() {
  case "$1" in
    build-essential) command -v g++ >/dev/null && command -v make >/dev/null && return 0 ;;
    cmake) command -v cmake >/dev/null && return 0 ;;
    ninja-build) command -v ninja >/dev/null && return 0 ;;
    pkg-config) command -v pkg-config >/dev/null && return 0 ;;
    python3-dev) proton_python_has_headers python3 && return 0 ;;
  esac
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

# Whether the Python named (a command or a path) has its C headers.
proton_python_has_headers() {
  command -v "$1" >/dev/null 2>&1 || return 1
  "$1" -c 'import os, sys, sysconfig
sys.exit(not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
    >/dev/null 2>&1
}
