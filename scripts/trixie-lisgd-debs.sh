#!/bin/sh
# scripts/trixie-lisgd-debs.sh [OUTDIR] — Debian trixie's lisgd and the packages it
# needs that the trixie guest root (scripts/trixie-root.sh vm) lacks, as .debs in
# OUTDIR (default .build-vm-guest/trixie-lisgd), for bench_lisgd_trixie, which
# installs them offline. Fetched with apt in that root under an overlay, so the
# cached root stays as it is. Kept: a second run with them present does nothing.
# Needs root and network.
set -eu
cd "$(dirname "$0")/.."
out=${1:-$(pwd)/.build-vm-guest/trixie-lisgd}
if ls "$out"/lisgd_*.deb > /dev/null 2>&1; then
    echo "$out"
    exit 0
fi
[ "$(id -u)" -eq 0 ] || { echo "trixie-lisgd-debs: needs root" >&2; exit 1; }
root=$(GESTURED_TRIXIE_ARCH=amd64 scripts/trixie-root.sh vm)
work=$(mktemp -d /var/tmp/gestured-lisgd-debs.XXXXXX)
mkdir -p "$work/upper" "$work/work" "$work/root"
cleanup() { umount -l "$work/root" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT INT TERM
mount -t overlay overlay -o "lowerdir=$root,upperdir=$work/upper,workdir=$work/work" "$work/root"
cp /etc/resolv.conf "$work/root/etc/resolv.conf"
chroot "$work/root" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --download-only --no-install-recommends lisgd" >&2
mkdir -p "$out"
cp "$work/root/var/cache/apt/archives/"*.deb "$out/"
echo "trixie-lisgd-debs: $(cd "$out" && ls *.deb | tr '\n' ' ')" >&2
echo "$out"
