#!/bin/sh
# Replay parity: every Atmel and EP0430M09 recording, played into a fresh uinput
# device while gestured runs, must give the same (name, kind, state, fingers)
# sequence as `gesturectl replay` of the same file; the kernel must deliver what the
# recording holds (libinput debug-events on the same node counts the touches that
# begin and end in the recording); removing the device after the gesture is over
# must print nothing more.
# vm-timeout: 300
. "$VM_REPO/Tests/vm/lib.sh"
vm_need_binaries

vm_daemon_start || vm_abort "gestured did not come up"
: > "$VM_SCRATCH/all.expected"
i=0
for rec in "$VM_FIXTURES"/Atmel-maXTouch-Touchscreen.*.events "$VM_FIXTURES"/EP0430M09.*.events; do
    i=$((i + 1))
    base=$(basename "$rec" .events)
    desc=$VM_FIXTURES/${base%%.*}.desc
    h=dev$i
    vm_log "--- $base"
    vm_device_create "$h" "$desc" || continue
    vm_daemon_wait_opens "$h" 20 || { vm_device_remove "$h"; continue; }
    vm_libinput_start "$h"

    vm_replay "$desc" "$rec" "$VM_SCRATCH/$base.expected"
    cat "$VM_SCRATCH/$base.expected" >> "$VM_SCRATCH/all.expected"
    mark=$(vm_daemon_mark)
    vm_device_play "$h" "$rec"
    vm_daemon_wait_quiet 2 30 || vm_fail "$base: gestured kept printing for 30 s after the recording"
    vm_daemon_events "$mark" > "$VM_SCRATCH/$base.live"
    vm_project < "$VM_SCRATCH/$base.expected" > "$VM_SCRATCH/$base.expected.seq"
    vm_project < "$VM_SCRATCH/$base.live" > "$VM_SCRATCH/$base.live.seq"
    vm_compare "$base: gestured vs gesturectl replay" "$VM_SCRATCH/$base.expected.seq" "$VM_SCRATCH/$base.live.seq"

    set -- $(vm_recording_touches "$rec")
    vm_libinput_wait "$h" TOUCH_UP "$2" 20
    sleep 0.5
    vm_libinput_stop "$h"
    vm_assert_eq "$base: touches begun (libinput TOUCH_DOWN)" "$1" "$(vm_libinput_count "$h" TOUCH_DOWN)"
    vm_assert_eq "$base: touches ended (libinput TOUCH_UP)" "$2" "$(vm_libinput_count "$h" TOUCH_UP)"

    mark=$(vm_daemon_mark)
    vm_device_remove "$h"
    vm_daemon_wait_quiet 1 10
    # A recording that ends with a finger still down (2-fingers-touch-release does)
    # leaves a touch live: removal must cancel what it started, and nothing else.
    vm_daemon_events "$mark" > "$VM_SCRATCH/$base.after-removal"
    vm_assert_eq "$base: events after removal that are not cancellations" "" \
        "$(jq -c 'select(.state != "cancelled")' < "$VM_SCRATCH/$base.after-removal")"
    cat "$VM_SCRATCH/$base.live" "$VM_SCRATCH/$base.after-removal" > "$VM_SCRATCH/$base.all"
    vm_assert_eq "$base: continuous gestures left open after removal" "" \
        "$(vm_continuous_open "$VM_SCRATCH/$base.all" | tr '\n' ' ')"
done
vm_assert "gesturectl replay recognizes something in these recordings" test -s "$VM_SCRATCH/all.expected"
vm_assert "gestured still running" vm_daemon_alive
vm_daemon_stop
vm_finish
