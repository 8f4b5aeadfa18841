#!/bin/sh
# PID 1 of the arm64 build guest (copied to /io/guest.sh by scripts/arm64-build.sh;
# Tests/vm/guest/arm64-init starts it). /io/task says what to do:
#   root:  finish debootstrap's second stage on the root image, then install
#          Debian's packaging tools (with network), as scripts/trixie-root.sh does
#          for the amd64 build root;
#   build: what scripts/debian-build.sh does on amd64: the committed tree
#          (/io/src.tar, from git archive HEAD), `apt-get build-dep ./` and
#          `swift package resolve` with network, `dpkg-buildpackage -us -uc -b`
#          with none (unshare -n, loopback only), lintian; results to /io/out;
#   test:  the unit tests of a tree built for arm64 on the host, shared at
#          /mnt/build and run at /build (scripts/arm64-cross-test.sh --guest);
#          output to /io/tests.log, what runs every minute to /io/diag.
# Each step's end goes to /io/progress with the guest's uptime; /io/rc is the
# verdict. The guest powers itself off at the end.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=dumb
io=/io

mark() { echo "$* $(cut -d' ' -f1 /proc/uptime)" >> $io/progress; sync; }
finish() {
    echo "$1" > $io/rc
    mark "done $1"
    sync
    echo o > /proc/sysrq-trigger
    sleep 60
}
# qemu's user-mode network: fixed addresses, no DHCP client needed.
net_up() {
    ip link set lo up
    ip link set eth0 up
    ip addr add 10.0.2.15/24 dev eth0
    ip route add default via 10.0.2.2
    echo "nameserver 10.0.2.3" > /etc/resolv.conf
}

# The virt machine's clock may start anywhere; apt checks Release dates.
now=$(cat $io/now 2>/dev/null || echo 0)
[ "$(date +%s)" -lt "$now" ] && date -s "@$now" >/dev/null
[ -r /proc/uptime ] || mount -t proc proc /proc
mount -t tmpfs tmpfs /tmp
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
task=$(cat $io/task)
mark "start $task"

case "$task" in
root)
    if [ -x /debootstrap/debootstrap ]; then
        /debootstrap/debootstrap --second-stage > $io/second-stage.log 2>&1 || {
            tail -n 30 /debootstrap/debootstrap.log >> $io/second-stage.log 2>/dev/null
            finish "second-stage-failed"
        }
        mark "second-stage"
    fi
    net_up
    second=$(cat $io/second)
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $second; } \
        > $io/second-step.log 2>&1 || finish "second-step-failed"
    apt-get clean
    rm -f /etc/resolv.conf
    mark "second-step"
    finish 0
    ;;
build)
    # A kept root (ARM64_WORK) may hold this commit's build from an earlier
    # boot: /build/done lists the steps it finished.
    rev=$(cat $io/rev)
    [ "$(sed -n 1p /build/done 2>/dev/null)" = "$rev" ] || { rm -rf /build; mkdir -p /build; echo "$rev" > /build/done; }
    done_step() { grep -qx "$1" /build/done; }
    # What is built reaches the disk every few minutes, should the guest be
    # stopped part way.
    (while sleep 300; do sync; done) &
    mkdir -p /build/gestured $io/out
    if ! done_step source; then
        tar -x -C /build/gestured -f $io/src.tar
        echo source >> /build/done; sync
    fi
    cd /build/gestured || finish "no-source"
    gitenv=""
    if [ -d /opt/swift-packages/apple ]; then
        gitenv="GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=url./opt/swift-packages/.insteadof GIT_CONFIG_VALUE_0=https://github.com/"
    fi
    if ! done_step resolve; then
        net_up
        { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get build-dep -y ./; } > $io/build-dep.log 2>&1 \
            || finish "build-dep-failed"
        mark "build-dep"
        env $gitenv swift package resolve > $io/resolve.log 2>&1 || finish "resolve-failed"
        mark "resolve"
        ip link set eth0 down
        echo resolve >> /build/done; sync
        nc=""
    else
        # Going on: keep the build tree (no clean first); swift build goes on
        # from what it had built.
        mark "going on"
        nc="-nc"
        [ -f $io/dpkg-buildpackage.log ] && cat $io/dpkg-buildpackage.log >> $io/dpkg-buildpackage.earlier.log
    fi
    # A network namespace of its own with only loopback up, as on amd64.
    # The targets one swift build each first (see scripts/arm64-build.sh).
    build_steps=$(sed -n 1p $io/steps 2>/dev/null)
    test_steps=$(sed -n 2p $io/steps 2>/dev/null)
    unshare -n sh -c "ip link set lo up && GESTURED_BUILD_STEPS='$build_steps' GESTURED_TEST_STEPS='$test_steps' DEB_BUILD_OPTIONS='$(cat $io/deb_build_options 2>/dev/null)' dpkg-buildpackage -us -uc -b $nc" \
        > $io/dpkg-buildpackage.log 2>&1
    rc=$?
    mark "dpkg-buildpackage $rc"
    [ $rc -eq 0 ] || finish "dpkg-buildpackage-failed"
    cp ../*.deb ../*.changes ../*.buildinfo $io/out/
    changes=$(cd .. && ls *.changes)
    (cd .. && lintian --info --display-info --pedantic "$changes") > $io/out/lintian.txt 2>&1
    mark "lintian"
    finish 0
    ;;
test)
    # The unit tests of a tree built for arm64 on the host (scripts/arm64-cross-test.sh
    # --guest), shared at /mnt/build and copied to /build, where it was built: run
    # on this arm64 kernel as `swift test` runs them. The programs' RUNPATH names
    # the Swift runtime under /sysroot, the build's SDK, which here is /.
    [ -e /sysroot ] || ln -s / /sysroot
    # Loopback, as every Linux system has it up: Foundation's run loop wakes
    # itself through a UDP socket pair on 127.0.0.1, and without it a test that
    # waits for a child process (Process.waitUntilExit) waits for ever.
    ip link set lo up
    # The tests write beside the built programs (and hard-link them): they run
    # on a copy on the guest's own disk, as in a build tree, not on the share.
    rm -rf /build
    cp -a /mnt/build /build || finish "no-build-tree"
    mark "tree copied"
    cd /build || finish "no-build-tree"
    filter=$(cat $io/filter 2>/dev/null)
    # What runs, every minute: each process's state, descriptors and threads,
    # and each thread of the tests' where it waits (a stalled run says where).
    (while sleep 60; do
        {
            echo "== uptime $(cut -d' ' -f1 /proc/uptime)"
            for p in /proc/[0-9]*; do
                cmd=$(tr '\0' ' ' < "$p/cmdline" 2>/dev/null | cut -c1-200)
                [ -n "$cmd" ] || continue
                echo "${p#/proc/} $(sed 's/.*) //' "$p/stat" | cut -d' ' -f1) fds=$(ls "$p/fd" 2>/dev/null | wc -l) threads=$(ls "$p/task" 2>/dev/null | wc -l) wchan=$(cat "$p/wchan" 2>/dev/null) $cmd"
                case "$cmd" in *xctest*)
                    for t in "$p"/task/*; do
                        echo "    ${t##*/} $(cat "$t/comm" 2>/dev/null) $(sed 's/.*) //' "$t/stat" | cut -d' ' -f1) $(cat "$t/wchan" 2>/dev/null)"
                    done ;;
                esac
            done
        } >> $io/diag 2>&1
    done) &
    # shellcheck disable=SC2086
    HOME=/tmp ./.build/aarch64-unknown-linux-gnu/debug/gesturedPackageTests.xctest \
        --testing-library swift-testing $filter > $io/tests.log 2>&1
    rc=$?
    mark "tests $rc"
    finish "$rc"
    ;;
*)
    finish "unknown-task"
    ;;
esac
