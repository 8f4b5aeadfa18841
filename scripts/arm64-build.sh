#!/bin/sh
# scripts/arm64-build.sh [OUTDIR] — builds gestured's Debian packages for arm64 in
# an arm64 Debian trixie guest under qemu-system-aarch64 (-M virt -cpu cortex-a72,
# software emulation), the way scripts/debian-build.sh builds them for amd64:
# the committed tree (git archive HEAD), `apt-get build-dep ./` and
# `swift package resolve` with network, `dpkg-buildpackage -us -uc -b` with none
# (the unit tests run in dh_auto_test, on arm64), then lintian.
# Slow (hours): a manual step, not part of every CI run. Needs root.
#
# Made once and kept in $GESTURED_TRIXIE_CACHE (default /var/cache/gestured-ci):
#   trixie-build-arm64.img   the build root, an ext4 image: debootstrap --foreign
#                            on the host, the second stage and Debian's packaging
#                            tools installed in the guest. Each build boots it
#                            with qemu's snapshot=on, so it stays clean.
#   trixie-arm64-kernel/     trixie's arm64 kernel (linux-image-arm64, unpacked
#                            with dpkg-deb -x) and a busybox initramfs with the
#                            virtio, ext4 and 9p modules.
# OUTDIR (default .build-deb-arm64/) gets the .debs, .changes, .buildinfo,
# lintian.txt and the guest's logs (dpkg-buildpackage.log has the unit tests).
# Environment: ARM64_MEM (MiB, default 8192), ARM64_SMP (default 2),
# ARM64_TIMEOUT (seconds for the build guest, default 21600), DEB_BUILD_OPTIONS,
# ARM64_WORK: a directory to keep the build in, so that a build stopped part way
# (the machine shut down, the timeout) goes on where it stopped when run again
# with the same ARM64_WORK and the same commit: the guest then writes to its own
# copy of the root there (raw and sparse, so that a killed qemu leaves nothing
# half-written on the host's side) instead of a throwaway snapshot, and skips the
# steps already done; dpkg-buildpackage runs with -nc to keep the build tree,
# and swift build goes on from the last target it finished (each is built on
# its own first: scripts/build-steps.py).
# `scripts/arm64-build.sh --root-only` makes (or checks) the cached root only.
# `scripts/arm64-build.sh --test-tree TREE OUTDIR` boots the root to run the unit
# tests of TREE, a tree built for arm64 on the host at /build
# (scripts/arm64-cross-test.sh --guest); OUTDIR gets tests.log.
set -eu
cd "$(dirname "$0")/.."
repo=$(pwd -P)
root_only="" test_tree=""
if [ "${1:-}" = "--root-only" ]; then root_only=1; shift; fi
if [ "${1:-}" = "--test-tree" ]; then
    [ $# -ge 3 ] || { echo "usage: $0 --test-tree TREE OUTDIR" >&2; exit 2; }
    test_tree=$(cd "$2" && pwd -P); shift 2
fi
out=${1:-$repo/.build-deb-arm64}
cache=${GESTURED_TRIXIE_CACHE:-/var/cache/gestured-ci}
mirror=${GESTURED_TRIXIE_MIRROR:-http://deb.debian.org/debian}
mem=${ARM64_MEM:-8192}
smp=${ARM64_SMP:-2}
build_timeout=${ARM64_TIMEOUT:-21600}
# The build root's packages: scripts/trixie-root.sh's `build` list, plus what the
# guest itself needs (busybox-static for the initramfs, iproute2 for the network).
first="swiftlang,libc6-dev,libstdc++-14-dev,libevdev-dev,libudev-dev,libmtdev-dev,libtomlplusplus-dev,pkgconf,git,ca-certificates,python3,busybox-static,iproute2"
second="dpkg-dev debhelper lintian fakeroot build-essential"
img=$cache/trixie-build-arm64.img
kdir=$cache/trixie-arm64-kernel
stamp="$first|$second|arm64"

say() { echo "arm64-build: $*" >&2; }
die() { say "error: $*"; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root"
scripts/deps.sh --arm64

# boot_guest TASK IODIR LIMIT [qemu args…] — boots the root image with
# Tests/vm/guest/arm64-guest.sh as PID 1 doing TASK; returns its verdict.
boot_guest() {
    task=$1 io=$2 limit=$3
    shift 3
    echo "$task" > "$io/task"
    date +%s > "$io/now"
    cp Tests/vm/guest/arm64-guest.sh "$io/guest.sh"
    make_initramfs
    : > "$io/progress"
    rm -f "$io/rc"
    say "[$task] booting the arm64 guest (${smp} vCPU, $mem MiB); console: $io/console.log"
    t0=$(date +%s)
    qemu-system-aarch64 -M virt -cpu cortex-a72 -smp "$smp" -m "$mem" -nographic -no-reboot \
        -kernel "$kdir/vmlinuz" -initrd "$kdir/initramfs.cpio.gz" \
        -append "console=ttyAMA0 panic=-1 quiet" \
        -nic user,model=virtio-net-pci \
        -virtfs "local,path=$io,mount_tag=io,security_model=none,multidevs=remap" \
        "$@" </dev/null > "$io/console.log" 2>&1 &
    qpid=$!
    booted="" seen=0
    while kill -0 "$qpid" 2>/dev/null; do
        sleep 2
        n=$(wc -l < "$io/progress")
        while [ "$n" -gt "$seen" ]; do
            seen=$((seen + 1))
            line=$(sed -n "${seen}p" "$io/progress")
            say "[$task] $(( $(date +%s) - t0 )) s: $line"
            case "$line" in booted*) booted=1 ;; esac
        done
        if [ -z "$booted" ] && [ $(( $(date +%s) - t0 )) -gt 300 ]; then
            say "[$task] guest not up within 300 s"; kill "$qpid"; break
        fi
        if [ $(( $(date +%s) - t0 )) -gt "$limit" ]; then
            say "[$task] guest still running after $limit s: stopped"; kill "$qpid"; break
        fi
    done
    wait "$qpid" 2>/dev/null || true
    say "[$task] qemu ran $(( $(date +%s) - t0 )) s"
    rc=$(cat "$io/rc" 2>/dev/null || echo "no-verdict")
    if [ "$rc" != 0 ]; then
        say "[$task] failed: $rc; last console lines:"
        tail -n 20 "$io/console.log" >&2
        return 1
    fi
}

# --- kernel and initramfs ----------------------------------------------------
# stanza PACKAGES NAME — that package's entry in an apt Packages file.
stanza() { awk -v p="Package: $2" '$0 == p { on = 1 } on && $0 == "" { exit } on' "$1"; }

make_kernel() {
    lists=$1/var/lib/apt/lists
    pk=$(ls "$lists"/*_dists_trixie_main_binary-arm64_Packages)
    kpkg=$(stanza "$pk" linux-image-arm64 | sed -n 's/^Depends: \(linux-image-[^ ,]*\).*/\1/p')
    kver=${kpkg#linux-image-}
    [ -f "$kdir/version" ] && [ -d "$kdir/stage" ] && [ "$(cat "$kdir/version")" = "$kver" ] && return
    say "kernel $kpkg"
    rm -rf "$kdir.new"
    mkdir -p "$kdir.new/x" "$kdir.new/stage/bin" "$kdir.new/stage/modules"
    file=$(stanza "$pk" "$kpkg" | sed -n 's/^Filename: //p')
    [ -n "$file" ] || die "no $kpkg in $pk"
    wget -q -O "$kdir.new/kernel.deb" "$mirror/$file"
    dpkg-deb -x "$kdir.new/kernel.deb" "$kdir.new/x"
    ln -s usr/lib "$kdir.new/x/lib"
    depmod -b "$kdir.new/x" "$kver"
    cp "$kdir.new/x/boot/vmlinuz-$kver" "$kdir.new/vmlinuz"
    bb=$(ls "$1"/var/cache/apt/archives/busybox-static_*_arm64.deb)
    dpkg-deb -x "$bb" "$kdir.new/bb"
    cp "$kdir.new/bb/usr/bin/busybox" "$kdir.new/stage/bin/busybox"
    chmod 755 "$kdir.new/stage/bin/busybox"
    mkdir -p "$kdir.new/stage/dev" "$kdir.new/stage/proc" "$kdir.new/stage/sys"
    : > "$kdir.new/stage/modules.list"
    for m in virtio_blk virtio_net ext4 9pnet_virtio 9p; do
        modprobe -d "$kdir.new/x" -S "$kver" --show-depends "$m"
    done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' | while read -r ko; do
        base=$(basename "$ko" .xz)
        xz -dc "$ko" > "$kdir.new/stage/modules/$base"
        echo "$base" >> "$kdir.new/stage/modules.list"
    done
    rm -rf "$kdir.new/x" "$kdir.new/bb" "$kdir.new/kernel.deb"
    echo "$kver" > "$kdir.new/version"
    rm -rf "$kdir"
    mv "$kdir.new" "$kdir"
}

# The initramfs: the kept busybox and modules, and the current arm64-init.
# (Written aside and moved, as a second guest may be booting from it.)
make_initramfs() {
    cp Tests/vm/guest/arm64-init "$kdir/stage/init"
    chmod 755 "$kdir/stage/init"
    (cd "$kdir/stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) | gzip -1 > "$kdir/initramfs.cpio.gz.$$"
    mv "$kdir/initramfs.cpio.gz.$$" "$kdir/initramfs.cpio.gz"
}

# --- the build root ------------------------------------------------------------
make_root() {
    if [ -f "$img.stamp" ] && [ "$(cat "$img.stamp")" = "$stamp" ] && [ -f "$kdir/version" ]; then
        return
    fi
    dir=$cache/trixie-build-arm64.new
    rm -f "$img.new"
    mkdir -p "$cache"
    # The first stage runs on this machine. Where arm64 programs run here through
    # qemu-user (binfmt_misc has qemu-aarch64, e.g. from qemu-user-static), the
    # second stage and the packaging tools do too (dpkg's system calls run
    # natively: no slower than the guest, and the guest is not needed); otherwise
    # the guest finishes the root itself. A first stage made where qemu-user was
    # missing is finished here once it is there.
    user=""
    if grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null; then user=1; fi
    if [ ! -f "$dir/.first-stage" ] || [ "$(cat "$dir/.first-stage")" != "$stamp" ]; then
        rm -rf "$dir"
        t=$(date +%s)
        say "debootstrap --foreign --arch=arm64 trixie (first stage, on this machine)"
        debootstrap --foreign --variant=minbase --arch=arm64 --include="$first" trixie "$dir" "$mirror" >&2
        # The kernel and busybox come from the first stage's package lists and
        # archives, which the second stage's clean-up removes.
        make_kernel "$dir"
        say "debootstrap took $(( $(date +%s) - t )) s"
        echo "$stamp" > "$dir/.first-stage"
    fi
    if [ -n "$user" ] && [ ! -f "$dir/.second-stage" ]; then
        t=$(date +%s)
        say "debootstrap --second-stage and the packaging tools, here through qemu-user"
        # qemu-user's default CPU (max) is many times slower.
        QEMU_CPU=cortex-a72 chroot "$dir" /debootstrap/debootstrap --second-stage >&2
        cp /etc/resolv.conf "$dir/etc/resolv.conf"
        QEMU_CPU=cortex-a72 chroot "$dir" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $second" >&2
        chroot "$dir" apt-get clean
        rm -f "$dir/etc/resolv.conf"
        echo done > "$dir/.second-stage"
        say "second stage and packaging tools took $(( $(date +%s) - t )) s"
    fi
    make_kernel "$dir"
    # Sparse: it holds the build too (qemu's snapshot keeps that out of the file).
    t=$(date +%s)
    mkfs.ext4 -q -F -L trixie-arm64 -d "$dir" "$img.new" 24G
    say "root image made in $(( $(date +%s) - t )) s"
    if [ ! -f "$dir/.second-stage" ]; then
        io=$(mktemp -d /var/tmp/gestured-arm64-root.XXXXXX)
        echo "$second" > "$io/second"
        t=$(date +%s)
        if ! boot_guest root "$io" 7200 -drive "file=$img.new,format=raw,if=none,id=root" -device virtio-blk-pci,drive=root; then
            say "logs kept in $io"
            exit 1
        fi
        say "second stage and packaging tools took $(( $(date +%s) - t )) s in the guest"
        rm -rf "$io"
    fi
    rm -rf "$dir"
    mv "$img.new" "$img"
    echo "$stamp" > "$img.stamp"
}

make_root
[ -n "$root_only" ] && { say "root: $img"; exit 0; }

# --- unit tests built for arm64 on the host (scripts/arm64-cross-test.sh --guest) --
if [ -n "$test_tree" ]; then
    io=$(mktemp -d /var/tmp/gestured-arm64-test.XXXXXX)
    echo "${ARM64_TEST_FILTER:+--filter $ARM64_TEST_FILTER}" > "$io/filter"
    rc=0
    boot_guest test "$io" "$build_timeout" \
        -drive "file=$img,format=raw,if=none,id=root,snapshot=on" -device virtio-blk-pci,drive=root \
        -virtfs "local,path=$test_tree,mount_tag=build,security_model=none,multidevs=remap" || rc=1
    mkdir -p "$out"
    cp "$io/progress" "$io/console.log" "$io/diag" "$out/" 2>/dev/null || true
    cp "$io/tests.log" "$out/tests.log" 2>/dev/null || say "the guest wrote no tests.log"
    rm -rf "$io"
    exit "$rc"
fi

# --- the build -------------------------------------------------------------------
rev=$(git rev-parse HEAD)
if [ -n "${ARM64_WORK:-}" ]; then
    mkdir -p "$ARM64_WORK"
    io=$(cd "$ARM64_WORK" && pwd -P)/io
    if [ "$(cat "$io/rev" 2>/dev/null)" != "$rev" ] || [ ! -f "$ARM64_WORK/root.img" ]; then
        rm -rf "$io" "$ARM64_WORK/root.img"
        mkdir -p "$io"
        say "copying the build root to $ARM64_WORK/root.img"
        cp --sparse=always "$img" "$ARM64_WORK/root.img"
    else
        say "going on with the build of ${rev%"${rev#???????}"} kept in $ARM64_WORK"
    fi
    disk="file=$ARM64_WORK/root.img,format=raw,if=none,id=root"
else
    io=$(mktemp -d /var/tmp/gestured-arm64-build.XXXXXX)
    disk="file=$img,format=raw,if=none,id=root,snapshot=on"
fi
echo "$rev" > "$io/rev"
git archive -o "$io/src.tar" HEAD
echo "${DEB_BUILD_OPTIONS:-}" > "$io/deb_build_options"
# A build that goes on (ARM64_WORK): the targets in an order where each comes
# after what it needs, built one swift build each (the Makefile's
# GESTURED_BUILD_STEPS, debian/rules' GESTURED_TEST_STEPS): swift build records
# what it built only when it finishes, so a stopped guest loses at most the
# target it was building. That costs SwiftPM's parallel build of independent
# targets (ArgumentParser beside gestured's own), so a build in one go leaves
# it to SwiftPM.
rm -f "$io/steps"
if [ -n "${ARM64_WORK:-}" ]; then
    swift package describe --type json | python3 scripts/build-steps.py > "$io/steps" \
        || die "cannot list the package's targets (swift package describe)"
fi
share=""
if [ -d /opt/swift-packages ]; then
    share="-virtfs local,path=/opt/swift-packages,mount_tag=swiftpkgs,security_model=none,readonly=on,multidevs=remap"
fi
say "building $(git rev-parse --short HEAD) in the guest; logs in $io"
t=$(date +%s)
# shellcheck disable=SC2086
boot_guest build "$io" "$build_timeout" \
    -drive "$disk" -device virtio-blk-pci,drive=root $share \
    || { say "logs kept in $io"; exit 1; }
say "build guest took $(( $(date +%s) - t )) s"
mkdir -p "$out"
rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo "$out"/lintian.txt
cp "$io"/out/* "$io"/progress "$io"/*.log "$out/"
cat "$out/lintian.txt"
if [ -n "${ARM64_WORK:-}" ]; then rm -rf "$ARM64_WORK"; else rm -rf "$io"; fi
if grep -q '^E: ' "$out/lintian.txt"; then
    die "lintian reports errors (above)"
fi
ls -l "$out"/*.deb
