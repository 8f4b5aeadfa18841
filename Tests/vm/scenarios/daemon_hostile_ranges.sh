#!/bin/sh
# Hostile ranges: a touchscreen declaring its axes from -2^31 to 2^31-1 (the kernel
# accepts that range) and one sending positions far outside its declared range.
# gestured opens both and keeps running; it clamps what is out of range, logs that
# once per device, and every location it reports stays within 0…1.
. "$VM_REPO/Tests/vm/lib.sh"
vm_need_binaries

drag=$VM_FIXTURES/Atmel-maXTouch-Touchscreen.1-finger-drag-up-down.events
wide=$VM_SCRATCH/wide.desc
sed -e 's/^N: .*/N: Wide Range Touchscreen/' \
    -e 's/^A: \(00\|01\|35\|36\) .*/A: \1 -2147483648 2147483647 0 0 0/' \
    "$VM_FIXTURES/Atmel-maXTouch-Touchscreen.desc" > "$wide"
# The same drag with every X position thrown to one end of the 32-bit range.
far=$VM_SCRATCH/far.events
awk '$1 == "E:" && $3 == "0003" && $4 == "0035" { $5 = ($5 % 2 ? "2147483647" : "-2147483648") } { print }' \
    "$drag" > "$far"

vm_daemon_start || vm_abort "gestured did not come up"
mark=$(vm_daemon_mark)
vm_device_create wide "$wide" || vm_abort "cannot create the wide-range touchscreen"
vm_daemon_wait_opens wide 20 || vm_abort "the daemon never opened the wide-range touchscreen"
vm_device_play wide "$drag"
vm_daemon_wait_quiet 2 20
vm_assert "gestured still running after the wide-range device" vm_daemon_alive

vm_device_create atmel "$VM_FIXTURES/Atmel-maXTouch-Touchscreen.desc" || vm_abort "cannot create the touchscreen"
vm_daemon_wait_opens atmel 20 || vm_abort "the daemon never opened the touchscreen"
vm_device_play atmel "$far"
vm_daemon_wait_quiet 2 20
vm_daemon_events "$mark" > "$VM_SCRATCH/events"
vm_log "events: $(cat "$VM_SCRATCH/events")"

vm_assert_ne "events from the wide-range device" 0 \
    "$(jq -c 'select(.device == "Wide Range Touchscreen")' < "$VM_SCRATCH/events" | wc -l)"
vm_assert_ne "pans from the out-of-range drag" 0 \
    "$(jq -c 'select(.device == "Atmel maXTouch Touchscreen" and .kind == "pan" and .state == "began")' < "$VM_SCRATCH/events" | wc -l)"
vm_assert_eq "locations outside 0…1" 0 \
    "$(jq -c 'select(.location[0] < 0 or .location[0] > 1 or .location[1] < 0 or .location[1] > 1)' < "$VM_SCRATCH/events" | wc -l)"
vm_assert_eq "continuous gestures left open" "" "$(vm_continuous_open "$VM_SCRATCH/events" | tr '\n' ' ')"
vm_assert_eq "clamp warnings logged (once for the one device)" 1 \
    "$(grep -c 'outside the range the device declares' "$_vm_daemon_err")"
vm_assert "gestured still running" vm_daemon_alive
vm_daemon_stop
vm_finish
