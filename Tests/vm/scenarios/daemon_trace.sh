#!/bin/sh
# Live trace: gestured --trace pan --trace tap, while the 1-finger drag is played
# on a real kernel, says on stderr how each of the two decided — the pan's steps
# (tracking → panning, began, ended), the tap failing with its numbers — and
# nothing of the recognizers it was not asked about. Stdout stays JSON only.
. "$VM_REPO/Tests/vm/lib.sh"
vm_need_binaries

drag=$VM_FIXTURES/Atmel-maXTouch-Touchscreen.1-finger-drag-up-down.events
vm_daemon_start --trace pan --trace tap || vm_abort "gestured did not come up"
vm_device_create atmel "$VM_FIXTURES/Atmel-maXTouch-Touchscreen.desc" || vm_abort "cannot create the touchscreen"
vm_daemon_wait_opens atmel 20 || vm_abort "the daemon never opened the touchscreen"

vm_device_play atmel "$drag"
vm_daemon_wait_quiet 2 20
err=$_vm_daemon_err
vm_log "trace: $(grep -c 'trace:' "$err") lines"

has() { grep -q -- "$1" "$err"; }
vm_assert "the pan's step into panning is traced" has "pan: tracking → move(1) → panning: proposes to begin"
vm_assert "the pan's beginning is traced" has "pan: began"
vm_assert "the pan's end is traced" has "pan: panning → lift(0) → done: proposes to end"
vm_assert "the tap's failure is traced with its numbers" has "tap: touching(tap 1) → move(1) → done (moved [0-9.]* mm > 5.0 mm)"
vm_assert_eq "trace lines of recognizers not asked for" 0 \
    "$(grep 'trace:' "$err" | grep -c -v -e ': pan: ' -e ': tap: ')"
vm_assert_eq "recognizer bugs logged" 0 "$(grep -c 'bug in gestured' "$err")"
vm_assert_eq "pan events began" 1 "$(vm_daemon_events | jq -c 'select(.kind == "pan" and .state == "began")' | wc -l)"
vm_daemon_stop
vm_finish
