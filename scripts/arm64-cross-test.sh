#!/bin/sh
# scripts/arm64-cross-test.sh — builds gestured and its unit tests for arm64 with
# Debian's own Swift (swiftlang 6.0.3) and runs the tests on an emulated arm64 CPU:
#   the compiler is the amd64 trixie build root's (scripts/trixie-root.sh build),
#   targeting aarch64-unknown-linux-gnu against the arm64 trixie root of
#   scripts/arm64-build.sh (Debian's arm64 swiftlang: the same Swift runtime and
#   modules the arm64 package links against; its -dev libraries: libevdev, libudev,
#   mtdev, toml++, and libsystemd-dev added from Debian's pool), linked by
#   swiftlang's lld; the committed tree (git archive HEAD), `swift package resolve`
#   with network, the build with none (unshare -n);
#   the test binary then runs in the arm64 root under qemu-user (binfmt_misc's
#   qemu-aarch64, QEMU_CPU=cortex-a72), as `swift test` runs it.
# Hours faster than scripts/arm64-build.sh (which compiles under emulation: about
# 40x slower per compiler process here), and it runs the same unit tests on arm64
# code; it does not replace that build of the source package. Needs root.
# --guest: the tests run in the arm64 guest of scripts/arm64-build.sh instead
# (qemu-system-aarch64, trixie's arm64 kernel, the tree copied to /build): what
# qemu-user does not emulate as Linux does (a vfork'd spawn's session, a
# process's /proc/PID/exe) is then the kernel's own.
# Environment: ARM64_TEST_FILTER (a --filter for the tests), ARM64_KEEP_TREE (a
# directory to keep the built tree in, moved there at the end); with --guest,
# ARM64_MEM (MiB, default 4096) and ARM64_SMP (default 2).
set -eu
cd "$(dirname "$0")/.."
repo=$(pwd -P)
guest=""
if [ "${1:-}" = "--guest" ]; then guest=1; shift; fi
mirror=${GESTURED_TRIXIE_MIRROR:-http://deb.debian.org/debian}
cache=${GESTURED_TRIXIE_CACHE:-/var/cache/gestured-ci}
say() { echo "arm64-cross-test: $*" >&2; }
die() { say "error: $*"; exit 1; }
[ "$(id -u)" -eq 0 ] || die "needs root"
grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null \
    || die "binfmt_misc has no qemu-aarch64 (qemu-user-static registers it)"
host=$(scripts/trixie-root.sh build)
scripts/arm64-build.sh --root-only
img=$cache/trixie-build-arm64.img

work=$(mktemp -d /var/tmp/gestured-cross.XXXXXX)
mounted=""
cleanup() {
    for m in $mounted; do umount -l "$m" 2>/dev/null || true; done
    if [ -n "${ARM64_KEEP_TREE:-}" ] && [ -d "$work/build/.build" ]; then
        rm -rf "$ARM64_KEEP_TREE"
        mv "$work/build" "$ARM64_KEEP_TREE"
        say "the built tree is kept in $ARM64_KEEP_TREE (scripts/arm64-build.sh --test-tree runs its tests again)"
    fi
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
# mnt SOURCE TARGET [mount options…] — mounts and remembers it for the cleanup.
mnt() {
    src=$1 dst=$2
    shift 2
    mkdir -p "$dst"
    mount "$@" "$src" "$dst"
    mounted="$dst $mounted"
}
mkdir -p "$work/a64-image" "$work/host-up" "$work/host-wk" "$work/a64-up" "$work/a64-wk" "$work/build"
mnt "$img" "$work/a64-image" -o loop,ro
mnt overlay "$work/host" -t overlay -o "lowerdir=$host,upperdir=$work/host-up,workdir=$work/host-wk"
mnt overlay "$work/a64" -t overlay -o "lowerdir=$work/a64-image,upperdir=$work/a64-up,workdir=$work/a64-wk"
for r in host a64; do
    mnt /proc "$work/$r/proc" --bind
    mnt /dev "$work/$r/dev" --bind
    mnt "$work/build" "$work/$r/build" --bind
done
mnt "$work/a64" "$work/host/sysroot" --bind

# The arm64 -dev libraries Build-Depends names that the arm64 root lacks.
lists=$(ls "$work/a64"/var/lib/apt/lists/*_dists_trixie_main_binary-arm64_Packages)
for pkg in libsystemd-dev; do
    file=$(awk -v p="Package: $pkg" '$0 == p { on = 1 } on && /^Filename: / { print $2; exit }' "$lists")
    [ -n "$file" ] || die "no $pkg in $lists"
    wget -q -O "$work/$pkg.deb" "$mirror/$file" || die "cannot fetch $mirror/$file"
    dpkg-deb -x "$work/$pkg.deb" "$work/a64"
done

git archive HEAD | tar -x -C "$work/build"
gitenv=""
if [ -d /opt/swift-packages ]; then
    mnt /opt/swift-packages "$work/host/opt/swift-packages" --bind -o ro
    gitenv="GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=url./opt/swift-packages/.insteadof GIT_CONFIG_VALUE_0=https://github.com/"
fi
chroot "$work/host" sh -c "cd /build && HOME=/tmp env $gitenv swift package resolve" >&2

# The arm64 runtime is the resource directory, so the programs' RUNPATH names
# /sysroot/usr/lib/swift/linux: in the arm64 root /sysroot is / (the tests start the
# built programs themselves, with no LD_LIBRARY_PATH).
ln -s / "$work/a64/sysroot"
cat > "$work/build/cross-build" <<EOF
#!/bin/sh
cd /build
export HOME=/tmp PKG_CONFIG_SYSROOT_DIR=/sysroot
export PKG_CONFIG_LIBDIR=/sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:/sysroot/usr/share/pkgconfig
exec swift build --disable-automatic-resolution --triple aarch64-unknown-linux-gnu \\
    --sdk /sysroot -Xswiftc -sdk -Xswiftc /sysroot -Xcc --sysroot=/sysroot \\
    -Xswiftc -resource-dir -Xswiftc /sysroot/usr/lib/swift \\
    -Xswiftc -use-ld=lld -Xlinker -L/sysroot/usr/lib/aarch64-linux-gnu "\$@"
EOF
chmod 755 "$work/build/cross-build"
t=$(date +%s)
say "building $(git rev-parse --short HEAD) and its tests for aarch64 (Debian's Swift, offline)"
unshare -n chroot "$work/host" /build/cross-build --build-tests 2>&1 \
    | grep -v "Could not read SDKSettings.json" | tee "$work/build.log" | grep -E "warning:|error:|Build" >&2 || true
grep -q "^Build complete" "$work/build.log" || die "the arm64 build failed"
grep -q "warning:" "$work/build.log" && say "the build has warnings (above)"
say "built in $(( $(date +%s) - t )) s"
tests=/build/.build/aarch64-unknown-linux-gnu/debug/gesturedPackageTests.xctest
file "$work$tests" | grep -q "ARM aarch64" || die "the test binary is not an arm64 program"
t=$(date +%s)
mkdir -p "$repo/.build-arm64"
if [ -n "$guest" ]; then
    say "running the unit tests in the arm64 guest (qemu-system-aarch64, Cortex-A72)"
    rc=0
    ARM64_MEM=${ARM64_MEM:-4096} scripts/arm64-build.sh --test-tree "$work/build" "$repo/.build-arm64" || rc=$?
    say "tests ran $(( $(date +%s) - t )) s (the guest's boot included), exit $rc; log: .build-arm64/tests.log"
    tail -n 3 "$repo/.build-arm64/tests.log" >&2 || true
    exit "$rc"
fi
say "running the unit tests on an emulated Cortex-A72 (qemu-user)"
filter=""
[ -n "${ARM64_TEST_FILTER:-}" ] && filter="--filter $ARM64_TEST_FILTER"
rc=0
chroot "$work/a64" sh -c "cd /build && HOME=/tmp QEMU_CPU=cortex-a72 $tests --testing-library swift-testing $filter" > "$repo/.build-arm64/tests.log" 2>&1 || rc=$?
say "tests ran $(( $(date +%s) - t )) s, exit $rc; log: .build-arm64/tests.log"
tail -n 3 "$repo/.build-arm64/tests.log" >&2
exit "$rc"
