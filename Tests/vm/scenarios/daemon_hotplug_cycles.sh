#!/bin/sh
# Leaks across hotplug: the touchscreen is added and removed 20 times while gestured
# runs; the daemon opens it every time, and afterwards holds exactly as many file
# descriptors as before the first add.
# vm-timeout: 420
. "$VM_REPO/Tests/vm/lib.sh"
vm_need_binaries
cycles=20

desc=$VM_FIXTURES/Atmel-maXTouch-Touchscreen.desc
vm_daemon_start || vm_abort "gestured did not come up"
vm_daemon_wait_quiet 2 20
pid=$(vm_daemon_pid)
before=$(vm_fd_count "$pid")
vm_daemon_fds > "$VM_SCRATCH/fds.before"
opened=0
i=0
while [ "$i" -lt "$cycles" ]; do
    i=$((i + 1))
    # No udev settle here: the daemon opening the node means udev has announced it.
    vm_device_create atmel "$desc" --no-settle || vm_abort "cycle $i: cannot create the touchscreen"
    vm_daemon_wait_opens atmel 20 && opened=$((opened + 1))
    vm_device_remove atmel
    vm_daemon_alive || vm_abort "gestured died in cycle $i: $(tail -c 400 "$VM_SCRATCH/daemon.err")"
done
vm_assert_eq "cycles in which gestured opened the new device" "$cycles" "$opened"

_fds_back() { [ "$(vm_fd_count "$pid")" -eq "$before" ]; }
vm_wait_until 15 _fds_back
after=$(vm_fd_count "$pid")
vm_daemon_fds > "$VM_SCRATCH/fds.after"
vm_assert_eq "open fds of gestured before and after $cycles add/remove cycles" "$before" "$after" \
    || vm_note "fd diff: $(diff "$VM_SCRATCH/fds.before" "$VM_SCRATCH/fds.after" | grep '^[<>]' | head -n 10 | tr '\n' ';')"
vm_daemon_stop
vm_finish
