#!/bin/sh
# Hotplug: gestured is started first, with no touchscreen. Then a keyboard, a pen
# display and the Atmel touchscreen appear. The daemon must open the touchscreen and
# recognize taps played into it exactly as `gesturectl replay` does for the same
# recording, leave the keyboard and the pen display alone (not even open them), and
# print nothing while they are used. `gesturectl devices` shows only the touchscreen
# in use (the pen display at most as skipped, with the reason).
. "$VM_REPO/Tests/vm/lib.sh"
vm_need_binaries

atmel_desc=$VM_FIXTURES/Atmel-maXTouch-Touchscreen.desc
taps=$VM_FIXTURES/Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events

vm_daemon_start || vm_abort "gestured did not come up"
vm_device_create kbd "$VM_DEVICES/keyboard.desc" || vm_abort "cannot create the keyboard"
vm_device_create pen "$VM_DEVICES/pen-display.desc" || vm_abort "cannot create the pen display"
vm_device_create atmel "$atmel_desc" || vm_abort "cannot create the Atmel touchscreen"
vm_daemon_wait_opens atmel 20
sleep 1    # the keyboard and pen came first: a daemon that opens them has done so by now
vm_assert_not "gestured leaves the keyboard $(vm_node kbd) closed" vm_daemon_holds "$(vm_node kbd)"
vm_assert_not "gestured leaves the pen display $(vm_node pen) closed" vm_daemon_holds "$(vm_node pen)"

# gesturectl devices: the touchscreen (by name or node), not the others.
"$VM_GESTURECTL" devices > "$VM_SCRATCH/devices.out" 2> "$VM_SCRATCH/devices.err"
vm_assert_eq "gesturectl devices exit status" 0 "$?"
vm_log "gesturectl devices: $(cat "$VM_SCRATCH/devices.out")"
vm_assert "gesturectl devices lists the Atmel touchscreen" \
    grep -q -e "Atmel maXTouch Touchscreen" -e "$(vm_node atmel)\\b" "$VM_SCRATCH/devices.out"
vm_assert_not "gesturectl devices does not list the keyboard" \
    grep -q -e "VM test keyboard" -e "$(vm_node kbd)\\b" "$VM_SCRATCH/devices.out"
# The pen display may be listed, to say why it is skipped, but never as in use.
vm_assert_not "gesturectl devices does not show the pen display in use" \
    sh -c "grep -e 'VM test pen display' -e '$(vm_node pen)\\b' '$VM_SCRATCH/devices.out' | grep -q 'in use'"

# Typing and drawing with the pen: no gesture events at all.
mark=$(vm_daemon_mark)
vm_device_play kbd "$VM_DEVICES/keyboard.events"
vm_device_play pen "$VM_DEVICES/pen-display.events"
vm_daemon_wait_quiet 2 20
vm_daemon_events "$mark" > "$VM_SCRATCH/others.events"
vm_assert_eq "gesture events from the keyboard and the pen display" 0 "$(wc -l < "$VM_SCRATCH/others.events")"

# Taps on the touchscreen: the same events as the replay of the same recording.
vm_replay "$atmel_desc" "$taps" "$VM_SCRATCH/taps.expected"
vm_assert "gesturectl replay recognizes something in $(basename "$taps")" test -s "$VM_SCRATCH/taps.expected"
mark=$(vm_daemon_mark)
vm_device_play atmel "$taps"
vm_daemon_wait_quiet 2 30 || vm_fail "gestured kept printing for 30 s after the taps"
vm_daemon_events "$mark" > "$VM_SCRATCH/taps.live"
vm_project < "$VM_SCRATCH/taps.expected" > "$VM_SCRATCH/taps.expected.seq"
vm_project < "$VM_SCRATCH/taps.live" > "$VM_SCRATCH/taps.live.seq"
vm_compare "taps on the hotplugged touchscreen vs gesturectl replay" \
    "$VM_SCRATCH/taps.expected.seq" "$VM_SCRATCH/taps.live.seq"

vm_assert "gestured still running" vm_daemon_alive
vm_daemon_stop
vm_finish
