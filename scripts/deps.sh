#!/bin/sh
# Installs the Debian packages gestured builds and tests against. Idempotent.
# Usage: scripts/deps.sh [--vm|--arm64]   (--vm adds what the qemu test harness
# needs; --arm64 what scripts/arm64-build.sh needs: an arm64 trixie guest under
# qemu-system-aarch64, its root made with debootstrap --foreign)
set -eu
# librsvg2-bin: rsvg-convert, for `gesturectl explain --png` and its test.
pkgs="pkg-config libevdev-dev libudev-dev libmtdev-dev libtomlplusplus-dev libsystemd-dev librsvg2-bin"
if [ "${1:-}" = "--vm" ]; then
  pkgs="$pkgs qemu-system-x86 linux-image-amd64 busybox-static udev evemu-tools libinput-tools kmod systemd dbus libpam-systemd acl lisgd strace"
fi
# scripts/debian-build.sh, which test.sh runs as root beside its other steps,
# makes its trixie root with debootstrap and its offline build's network
# namespace with ip: installed here, before anything runs beside it.
if [ "$(id -u)" -eq 0 ] && [ -z "${GESTURED_SKIP_DEBIAN:-}" ]; then
  pkgs="$pkgs debootstrap iproute2"
fi
if [ "${1:-}" = "--arm64" ]; then
  pkgs="qemu-system-arm qemu-user-static binfmt-support debootstrap e2fsprogs kmod xz-utils cpio wget git"
fi
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "installing:$missing" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
