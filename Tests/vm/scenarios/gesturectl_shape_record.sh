#!/bin/sh
# Teaching a shape on a real kernel: `gesturectl shape record zed --into FILE`
# reads a uinput touchscreen, asks for three Z's, takes the three played, and adds
# a [recognizer.zed] table to a copy of the shipped config, which then loads whole.
# With that config a Z of another size and speed, played on the touchscreen, is
# `zed` for the daemon (and a straight swipe is not); a fourth stroke never drawn
# leaves the config as it was when the command is stopped.
. "$VM_REPO/Tests/vm/lib.sh"
vm_need_binaries

gen() { python3 "$VM_REPO/Tests/vm/tools/swipe_recording.py" "$@"; }
gen --start 50,20 --move 40,0 --then=-40,30 --then 40,0 --seconds 0.3 --count 3 --seed 7 "$VM_SCRATCH/z3.events"
gen --start 60,25 --move 55,0 --then=-55,42 --then 55,0 --seconds 0.4 --seed 8 "$VM_SCRATCH/z.events"
gen --start 30,40 --move 70,0 --seed 9 "$VM_SCRATCH/swipe.events"
conf=$VM_SCRATCH/gestured.toml
cp "$VM_REPO/config/gestured.toml" "$conf"
vm_device_create panel "$VM_SCRATCH/z3.desc" || vm_abort "cannot create the touchscreen"
node=$(vm_node panel)

"$VM_GESTURECTL" shape record zed --device "$node" --into "$conf" \
    > "$VM_SCRATCH/record.out" 2> "$VM_SCRATCH/record.err" &
rec=$!
_vm_track $rec
vm_wait_until 60 grep -q "draw 'zed' with one finger (1 of 3)" "$VM_SCRATCH/record.err" \
    || vm_abort "shape record did not ask for a stroke: $(cat "$VM_SCRATCH/record.err")"
vm_device_play panel "$VM_SCRATCH/z3.events"
vm_wait_until 60 sh -c "! kill -0 $rec 2>/dev/null" || vm_fail "shape record still waits after three strokes"
wait $rec
rc=$?
vm_note "shape record: $(tr '\n' ';' < "$VM_SCRATCH/record.err")"
vm_assert_eq "shape record's exit status" 0 "$rc"
vm_assert "it asked for the third stroke" grep -q "draw 'zed' with one finger (3 of 3)" "$VM_SCRATCH/record.err"
vm_assert "it said how consistent the three were" grep -q "^consistency: largest distance" "$VM_SCRATCH/record.err"
vm_assert "the table is in the config" grep -q '^\[recognizer.zed\]' "$conf"
vm_assert_eq "three examples" 3 "$(sed -n '/^\[recognizer.zed\]/,/^\]/p' "$conf" | grep -c '^    \[\[')"
vm_assert "the config loads whole with it" "$VM_GESTURECTL" check "$conf"

# The daemon on that config: a new Z is zed, a swipe is not.
GESTURED_CONFIG=$conf
vm_daemon_start || vm_abort "gestured did not come up"
vm_daemon_wait_opens panel 20 || vm_abort "the daemon never opened the touchscreen"
vm_device_play panel "$VM_SCRATCH/z.events"
vm_device_play panel "$VM_SCRATCH/swipe.events"
vm_daemon_wait_quiet 2 20
vm_assert_eq "the new Z is recognized as zed" 1 \
    "$(vm_daemon_events | grep -c '"name":"zed","kind":"shape","state":"recognized"')"
vm_assert_eq "the swipe is a swipe" 1 "$(vm_daemon_events | grep -c '"name":"swipe","kind":"swipe","state":"recognized"')"
vm_daemon_stop

# Stopped before its strokes: nothing written.
cp "$conf" "$VM_SCRATCH/before.toml"
"$VM_GESTURECTL" shape record other --device "$node" --into "$conf" > /dev/null 2> "$VM_SCRATCH/stopped.err" &
rec=$!
_vm_track $rec
vm_wait_until 60 grep -q "draw 'other'" "$VM_SCRATCH/stopped.err" || vm_fail "shape record did not start"
# (SIGTERM: a shell without job control starts background commands with SIGINT ignored.)
kill -TERM $rec
vm_wait_until 20 sh -c "! kill -0 $rec 2>/dev/null" || vm_fail "shape record did not stop on SIGTERM"
vm_assert "a stopped recording leaves the config as it was" cmp -s "$VM_SCRATCH/before.toml" "$conf"
vm_finish
