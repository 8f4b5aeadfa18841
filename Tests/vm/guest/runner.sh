#!/bin/sh
# Runs inside the guest, on the overlay of the host root: as PID 1 with no systemd
# (VM_MODE=chroot) or as a oneshot unit under systemd (VM_MODE=systemd). Runs each planned scenario in its own process group with a
# time limit and reports progress to the host through the results share.
R=/vm/results
. "$R/plan.env"
export VM_MODE VM_REPO GESTURED_BIN_DIR GESTURED_CONFIG GESTURED_DEB_DIR GESTURED_REQUIRE_DEB VM_TIMEOUT
for _v in $(sed -n 's/^\(BENCH_[A-Z_]*\)=.*/\1/p' "$R/plan.env"); do export "$_v"; done

now() { cut -d' ' -f1 /proc/uptime; }
progress() {
    echo "$*" >> "$R/progress"
    echo "vm-runner: $*"
}

if [ $$ = 1 ]; then
    # PID 1 without systemd (VM_MODE=chroot): the mounts a system has, and power off
    # when done, whatever happens to the scenarios. As PID 1 this shell also reaps
    # orphans whenever it waits, so killed helpers do not linger as zombies.
    mkdir -p /dev/pts /dev/shm
    mount -t devpts -o newinstance,ptmxmode=0666 devpts /dev/pts
    mount -t tmpfs -o mode=1777 tmpfs /dev/shm
    mount -t tmpfs -o mode=0755 tmpfs /run
    # busybox poweroff -f calls reboot(2) itself; PID 1 must never just exit (panic).
    trap 'sync; /bin/busybox poweroff -f; echo o > /proc/sysrq-trigger; while :; do /bin/busybox sleep 1; done' EXIT
fi

if [ "$VM_MODE" = chroot ]; then
    # The host's own udevd and rules, as a daemon without systemd.
    /lib/systemd/systemd-udevd --daemon >"$R/udevd.log" 2>&1 \
        || progress "fatal systemd-udevd did not start"
    # Coldplug only what the tests look at: all subsystems costs ~25 s under TCG.
    udevadm trigger --type=subsystems --action=add --subsystem-match=input
    udevadm trigger --type=devices --action=add --subsystem-match=input --subsystem-match=misc
fi
udevadm settle --timeout=60 || progress "note udevadm settle timed out at boot"
progress "booted $VM_MODE $(now)"

for name in $VM_SCENARIOS; do
    dir="$R/$name"
    mkdir -p "$dir" "/var/tmp/vm/$name"
    progress "start $name $(now)"
    t0=$(now)
    limit=$(sed -n 's/^# vm-timeout: *\([0-9]*\).*/\1/p' "$VM_REPO/Tests/vm/scenarios/$name.sh" | head -n1)
    limit=${limit:-$VM_TIMEOUT}
    # coreutils timeout runs in its own process group and signals all of it, so
    # a timed-out scenario takes its background helpers (evemu-device, daemon) along.
    env VM_SCENARIO="$name" VM_RESULTS="$dir" VM_SCRATCH="/var/tmp/vm/$name" \
        timeout -k 10 "$limit" sh "$VM_REPO/Tests/vm/scenarios/$name.sh" \
        </dev/null >"$dir/log" 2>&1 &
    pid=$!
    wait "$pid"
    rc=$?
    # Leftovers of a scenario that did not clean up after itself.
    kill -KILL -- "-$pid" 2>/dev/null
    [ "$rc" = 124 ] || [ "$rc" = 137 ] && echo "timed out after ${limit}s" > "$dir/timeout"
    echo "$rc" > "$dir/rc"
    udevadm settle --timeout=30
    progress "end $name rc=$rc $(now) $t0"
done
sync
progress "done $(now)"
