#!/bin/sh
# scripts/trixie-root.sh build|vm — prints the path of a Debian trixie root made
# with debootstrap, making it first when it is missing or was made from another
# package list. Roots are kept in $GESTURED_TRIXIE_CACHE (default
# /var/cache/gestured-ci), so a machine that keeps its files makes each once.
#   build: Debian's Swift (swiftlang 6.0.3), the -dev libraries and Debian's
#          packaging tools: builds, tests and packages gestured as Debian would.
#   vm:    a bootable trixie with systemd and udev and the libraries the
#          package depends on, for Tests/vm's trixie scenarios (the built .debs
#          are installed in the guest, offline, by `apt install ./…`).
# Needs root and debootstrap (installed when missing).
set -eu
kind=${1:-}
case "$kind" in
build)
    first="swiftlang,libc6-dev,libstdc++-14-dev,libevdev-dev,libudev-dev,libmtdev-dev,libtomlplusplus-dev,pkgconf,git,ca-certificates,python3"
    # Given to debootstrap's first stage, lintian's Perl dependencies fail to
    # configure: they come in a second step.
    second="dpkg-dev debhelper lintian fakeroot build-essential"
    fetch=""
    ;;
vm)
    first="systemd,systemd-sysv,udev,kmod,dbus,libpam-systemd,evemu-tools,libevdev2,libmtdev1t64,libudev1,jq,python3,procps,psmisc,passwd,login,util-linux,acl,ca-certificates"
    second=""
    # Debian's Sxmo, whose lisgd hook the trixie_package scenario runs unchanged.
    fetch="sxmo-utils"
    ;;
*)
    echo "usage: scripts/trixie-root.sh build|vm" >&2
    exit 64
    ;;
esac
arch=${GESTURED_TRIXIE_ARCH:-$(dpkg --print-architecture)}
cache=${GESTURED_TRIXIE_CACHE:-/var/cache/gestured-ci}
mirror=${GESTURED_TRIXIE_MIRROR:-http://deb.debian.org/debian}
root=$cache/trixie-$kind-$arch
stamp="$first|$second|$fetch|$arch"
if [ -f "$root/.gestured-root" ] && [ "$(cat "$root/.gestured-root")" = "$stamp" ]; then
    echo "$root"
    exit 0
fi
[ "$(id -u)" -eq 0 ] || { echo "trixie-root: making $root needs root" >&2; exit 1; }
if ! command -v debootstrap >/dev/null 2>&1; then
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >&2
fi
echo "trixie-root: making $root (debootstrap trixie, $arch; about two minutes)" >&2
mkdir -p "$cache"
rm -rf "$root.new"
debootstrap --variant=minbase --arch="$arch" --include="$first" trixie "$root.new" "$mirror" >&2
if [ -n "$second" ]; then
    cp /etc/resolv.conf "$root.new/etc/resolv.conf"
    chroot "$root.new" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $second" >&2
fi
if [ -n "$fetch" ]; then
    mkdir -p "$root.new/opt/gestured-test"
    cp /etc/resolv.conf "$root.new/etc/resolv.conf"
    chroot "$root.new" sh -c "apt-get update -qq && cd /opt/gestured-test && apt-get download $fetch" >&2
fi
chroot "$root.new" apt-get clean
echo "$stamp" > "$root.new/.gestured-root"
rm -rf "$root"
mv "$root.new" "$root"
echo "$root"
