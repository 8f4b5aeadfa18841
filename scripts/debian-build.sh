#!/bin/sh
# scripts/debian-build.sh [OUTDIR] — builds gestured's Debian packages as a Debian
# builder would, and checks them with lintian:
#   a clean trixie root (scripts/trixie-root.sh build, under an overlay so the
#   cached root stays clean), the committed tree (git archive HEAD),
#   `apt-get build-dep ./` and `swift package resolve` with network, then
#   `dpkg-buildpackage -us -uc -b` with none (unshare -n): Debian's Swift 6.0.3
#   builds the release binaries and runs the unit tests (DEB_BUILD_OPTIONS=nocheck
#   leaves the tests out). lintian must report no error.
# The .debs, the .buildinfo, .changes and lintian's report go to OUTDIR
# (default .build-deb/). Needs root.
set -eu
cd "$(dirname "$0")/.."
repo=$(pwd -P)
out=${1:-$repo/.build-deb}
command -v ip >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iproute2 >/dev/null; }
root=$(scripts/trixie-root.sh build)
work=$(mktemp -d /var/tmp/gestured-deb.XXXXXX)
mkdir -p "$work/upper" "$work/work" "$work/root" "$out"
mounted=""
cleanup() {
    for m in $mounted; do umount -l "$m" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
mount -t overlay overlay -o "lowerdir=$root,upperdir=$work/upper,workdir=$work/work" "$work/root"
mounted="$work/root"
for d in proc dev; do
    mount --bind "/$d" "$work/root/$d"
    mounted="$work/root/$d $mounted"
done
# Where this machine reads GitHub's packages from a local mirror, the build root
# reads them from the same place (git's insteadOf, as on the host).
gitenv=""
if [ -d /opt/swift-packages ]; then
    mkdir -p "$work/root/opt/swift-packages"
    mount --bind -o ro /opt/swift-packages "$work/root/opt/swift-packages"
    mounted="$work/root/opt/swift-packages $mounted"
    gitenv="GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=url./opt/swift-packages/.insteadof GIT_CONFIG_VALUE_0=https://github.com/"
fi
cp /etc/resolv.conf "$work/root/etc/resolv.conf"
src=$work/root/build/gestured
mkdir -p "$src"
git archive HEAD | tar -x -C "$src"
echo "debian-build: build-dep and swift package resolve (with network)" >&2
chroot "$work/root" sh -c "cd /build/gestured && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -qq ./ >/dev/null && env $gitenv swift package resolve"
echo "debian-build: dpkg-buildpackage -us -uc -b (no network)" >&2
t0=$(date +%s)
# A network namespace of its own with only loopback up, as Debian's builders
# (sbuild's unshare mode) have: some tests talk to themselves over it.
unshare -n sh -c "ip link set lo up && chroot '$work/root' sh -c \"cd /build/gestured && DEB_BUILD_OPTIONS='${DEB_BUILD_OPTIONS:-}' dpkg-buildpackage -us -uc -b\""
echo "debian-build: dpkg-buildpackage took $(( $(date +%s) - t0 )) s" >&2
rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo "$out"/lintian.txt
cp "$work/root/build/"*.deb "$work/root/build/"*.changes "$work/root/build/"*.buildinfo "$out/"
echo "debian-build: lintian" >&2
changes=$(cd "$work/root/build" && ls *.changes)
chroot "$work/root" sh -c "cd /build && lintian --info --display-info --pedantic $changes" > "$out/lintian.txt" 2>&1 || true
cat "$out/lintian.txt"
if grep -q '^E: ' "$out/lintian.txt"; then
    echo "debian-build: lintian reports errors (above)" >&2
    exit 1
fi
ls -l "$out"/*.deb
