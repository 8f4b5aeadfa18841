#!/bin/sh
# vm-mode: systemd
# The full-system mode works: systemd is PID 1 on the 9p root, its own udevd runs,
# and a touchscreen created under it is classified by udev as in the plain mode.
. "$VM_REPO/Tests/vm/lib.sh"

vm_assert_eq "PID 1" systemd "$(cat /proc/1/comm)"
vm_assert_eq "systemd-detect-virt --container (the guest must not look like a container)" none \
    "$(systemd-detect-virt --container 2>&1)"
vm_note "systemd-detect-virt: $(systemd-detect-virt 2>&1)"
vm_note "systemd.unit on its command line: $(tr ' ' '\n' < /proc/cmdline | grep '^systemd\.' | tr '\n' ' ')"
vm_assert_eq "systemd-udevd.service" active "$(systemctl is-active systemd-udevd.service)"
vm_assert_eq "systemd-journald.service" active "$(systemctl is-active systemd-journald.service)"
vm_note "system state: $(systemctl is-system-running 2>/dev/null), up $(vm_uptime) s"
failed=$(systemctl list-units --state=failed --plain --no-legend 2>/dev/null | awk '{ print $1 }' | tr '\n' ' ')
[ -n "$failed" ] && vm_note "failed units (not ours): $failed"

vm_device_create atmel "$VM_FIXTURES/Atmel-maXTouch-Touchscreen.desc" || vm_abort "cannot create the touchscreen"
node=$(vm_node atmel)
vm_assert_eq "ID_INPUT_TOUCHSCREEN of $node under systemd's udevd" 1 "$(vm_udev_prop "$node" ID_INPUT_TOUCHSCREEN)"
vm_device_remove atmel
vm_finish
