#!/usr/bin/env bash
# Installs the distribution packages that proton needs, with apt, per distribution
# (scripts/lib/packages.sh: Debian 12, Ubuntu 22.04, 24.04; others get Debian 12's names).
#   scripts/install-deps.sh [--main]   what the build and the main job need (scripts/quickstart.sh)
#   scripts/install-deps.sh --test     that and what the test suite adds (scripts/test.sh)
#   scripts/install-deps.sh --print [--main|--test]   the package names only, one line
# Only missing packages are installed. Where they cannot be (not root, no apt, apt's
# repositories unreachable, a name that does not resolve, PROTON_NO_INSTALL=1), one line names
# what is missing and the `apt-get install` line that would bring it; --main then exits 0 (the
# build makes what it can), --test exits 1. apt runs with network timeouts, so an unreachable
# mirror costs seconds, not minutes. --if-missing is accepted (the old spelling; now always so).
set -euo pipefail
source "$(dirname "$0")/lib/packages.sh"

what=main print=0
for arg in "$@"; do
  case "$arg" in
    --main) what=main ;;
    --test) what=test ;;
    --print) print=1 ;;
    --if-missing) ;;
    *) echo "install-deps: error: unknown option '$arg' (--main, --test, --print)" >&2; exit 2 ;;
  esac
done

distro=$(proton_distro)
read -r -a packages <<<"$(proton_packages "$distro" "$what")"
if [ "$print" = 1 ]; then
  echo "${packages[*]}"
  exit 0
fi
while IFS= read -r note; do
  [ -z "$note" ] || echo "install-deps: $note"
done <<<"$(proton_distro_note "$distro" "$what")"

missing_packages() {
  local p
  for p in "${packages[@]}"; do
    proton_package_present "$p" || echo "$p"
  done
}

apt_options=(-q -o Acquire::http::Timeout=10 -o Acquire::https::Timeout=10
             -o Acquire::Retries=0 -o DPkg::Lock::Timeout=60)

# apt-get update, bounded; fails, printing apt's first error line, when no repository answered
# (apt exits 0 then, with "W: Failed to fetch" lines and no "Hit:" or "Get:" line).
apt_update() {
  local out status=0
  out=$(timeout 120 apt-get update "${apt_options[@]}" 2>&1) || status=$?
  if [ "$status" -ne 0 ] || ! grep -q '^\(Hit\|Get\):' <<<"$out"; then
    grep -m 1 '^\(E:\|W:\|Err:\)' <<<"$out" | sed 's/^/install-deps: apt: /' >&2 || true
    return 1
  fi
}

# Installs the packages named; when that fails (one name does not resolve), each alone, so that
# the others still come.
apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  timeout 1800 apt-get install -y --no-install-recommends "${apt_options[@]}" "$@" && return 0
  local p
  for p in "$@"; do
    timeout 600 apt-get install -y --no-install-recommends "${apt_options[@]}" "$p" ||
      echo "install-deps: apt could not install $p" >&2
  done
}

mapfile -t missing < <(missing_packages)
[ "${#missing[@]}" -gt 0 ] || exit 0
reason=""
if [ "${PROTON_NO_INSTALL:-0}" = 1 ]; then
  reason="PROTON_NO_INSTALL=1"
elif ! command -v apt-get >/dev/null 2>&1; then
  reason="no apt-get here; install their equivalents"
elif [ "$(id -u)" != 0 ]; then
  reason="not root"
elif ! apt_update; then
  reason="apt-get update failed: no package repository reachable"
else
  echo "install-deps: installing ${missing[*]}"
  apt_install "${missing[@]}"
  mapfile -t missing < <(missing_packages)
  reason="apt could not install them"
fi
[ "${#missing[@]}" -gt 0 ] || exit 0
echo "install-deps: missing ${missing[*]} ($reason); with package access, as root: apt-get install ${missing[*]}" >&2
[ "$what" = main ] || exit 1
