#!/bin/sh
# SYN_DROPPED: gestured is stopped (SIGSTOP) while the 4-finger drag is played 8
# times, far more than the kernel's per-client evdev buffer holds, then continued.
# A raw reader stopped the same way proves the kernel really dropped events. The
# daemon must resync: every gesture it began is closed, it stays up, and no touch is
# stuck — the fast-taps recording played afterwards is recognized exactly as
# `gesturectl replay` recognizes it.
. "$VM_REPO/Tests/vm/lib.sh"
vm_need_binaries

desc=$VM_FIXTURES/Atmel-maXTouch-Touchscreen.desc
drag=$VM_FIXTURES/Atmel-maXTouch-Touchscreen.4-finger-drag-down.events
taps=$VM_FIXTURES/Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events
vm_daemon_start || vm_abort "gestured did not come up"
vm_device_create atmel "$desc" || vm_abort "cannot create the touchscreen"
vm_daemon_wait_opens atmel 20 || vm_abort "the daemon never opened the touchscreen"
node=$(vm_node atmel)

cat "$node" > "$VM_SCRATCH/raw.bin" &
raw=$!
sleep 0.5
daemon=$(vm_daemon_pid)
mark=$(vm_daemon_mark)
kill -STOP "$daemon" "$raw"
for i in 1 2 3 4 5 6 7 8; do vm_device_play atmel "$drag"; done
kill -CONT "$raw" "$daemon"
vm_daemon_wait_quiet 3 60 || vm_fail "gestured kept printing for 60 s after SIGCONT"
kill "$raw"; wait "$raw" 2>/dev/null

# struct input_event on x86_64: 16 bytes of time, u16 type, u16 code, s32 value.
dropped=$(od -An -v -tx1 -w24 "$VM_SCRATCH/raw.bin" \
    | awk '$17 == "00" && $18 == "00" && $19 == "03" && $20 == "00"' | wc -l)
vm_log "raw reader saw $dropped SYN_DROPPED in $(( $(stat -c %s "$VM_SCRATCH/raw.bin") / 24 )) events"
vm_assert "the kernel dropped events (SYN_DROPPED seen by a stopped raw reader)" test "$dropped" -ge 1

vm_assert "gestured survived the overflow" vm_daemon_alive || vm_finish
vm_daemon_events "$mark" > "$VM_SCRATCH/overflow.events"
vm_assert_eq "continuous gestures left open after the resync" "" \
    "$(vm_continuous_open "$VM_SCRATCH/overflow.events" | tr '\n' ' ')"

vm_replay "$desc" "$taps" "$VM_SCRATCH/taps.expected"
vm_assert "gesturectl replay recognizes something in $(basename "$taps")" test -s "$VM_SCRATCH/taps.expected"
mark=$(vm_daemon_mark)
vm_device_play atmel "$taps"
vm_daemon_wait_quiet 2 30 || vm_fail "gestured kept printing for 30 s after the taps"
vm_daemon_events "$mark" > "$VM_SCRATCH/taps.live"
vm_project < "$VM_SCRATCH/taps.expected" > "$VM_SCRATCH/taps.expected.seq"
vm_project < "$VM_SCRATCH/taps.live" > "$VM_SCRATCH/taps.live.seq"
vm_compare "taps after the overflow vs gesturectl replay (no stuck touch)" \
    "$VM_SCRATCH/taps.expected.seq" "$VM_SCRATCH/taps.live.seq"
vm_daemon_stop
vm_finish
