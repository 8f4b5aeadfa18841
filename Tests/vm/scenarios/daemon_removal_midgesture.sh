#!/bin/sh
# Removal mid-gesture: while the 1-finger drag is being played and gestured has
# reported the pan as began, the device disappears (its evemu-device is killed). The
# pan in flight must be reported cancelled, and nothing may follow it. The daemon
# stays up.
. "$VM_REPO/Tests/vm/lib.sh"
vm_need_binaries

drag=$VM_FIXTURES/Atmel-maXTouch-Touchscreen.1-finger-drag-up-down.events
vm_daemon_start || vm_abort "gestured did not come up"
vm_device_create atmel "$VM_FIXTURES/Atmel-maXTouch-Touchscreen.desc" || vm_abort "cannot create the touchscreen"
vm_daemon_wait_opens atmel 20 || vm_abort "the daemon never opened the touchscreen"

mark=$(vm_daemon_mark)
vm_device_play_bg atmel "$drag"
# The drag lasts 2.2 s and moves from its first 0.2 s on: pull the device at about
# 1 s, by the clock rather than by polling the daemon's output, which under TCG can
# lag behind the playback by more than the whole recording.
sleep 1
player=$(cat "$VM_SCRATCH/dev/atmel/play.pid")
kill -0 "$player" 2>/dev/null && still_playing=yes || still_playing=no
vm_device_remove atmel
vm_device_play_wait atmel
vm_assert_eq "the drag was still being played when the device went" yes "$still_playing"
vm_daemon_wait_quiet 2 20
vm_daemon_events "$mark" > "$VM_SCRATCH/events"
vm_log "events: $(cat "$VM_SCRATCH/events")"

vm_assert_eq "pan events began" 1 \
    "$(jq -c 'select(.kind == "pan" and .state == "began")' < "$VM_SCRATCH/events" | wc -l)"
vm_assert_eq "pan events cancelled" 1 \
    "$(jq -c 'select(.kind == "pan" and .state == "cancelled")' < "$VM_SCRATCH/events" | wc -l)"
vm_assert_eq "pan events ended (the finger never lifted)" 0 \
    "$(jq -c 'select(.kind == "pan" and .state == "ended")' < "$VM_SCRATCH/events" | wc -l)"
vm_assert_eq "the last event is the pan's cancellation" '"pan" "cancelled"' \
    "$(tail -n 1 "$VM_SCRATCH/events" | jq -r '"\"\(.kind)\" \"\(.state)\""')"
vm_assert_eq "continuous gestures left open" "" "$(vm_continuous_open "$VM_SCRATCH/events" | tr '\n' ' ')"
vm_assert "gestured still running after the removal" vm_daemon_alive
vm_daemon_stop
vm_finish
