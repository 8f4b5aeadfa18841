#!/bin/sh
# Smoke test of the machinery, no project binaries needed: udev classifies a uinput
# touchscreen made from a real device description, libinput reads a real recording
# played into it, and our hand-written keyboard and pen display are classified as
# what they are and not as touchscreens.
. "$VM_REPO/Tests/vm/lib.sh"

atmel_desc=$VM_FIXTURES/Atmel-maXTouch-Touchscreen.desc
taps=$VM_FIXTURES/Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events

# The recording itself: 9 touches begin and end (checks the fixture and the counter).
vm_assert_eq "touches in $(basename "$taps")" "9 9" "$(vm_recording_touches "$taps")"

vm_device_create atmel "$atmel_desc" || vm_abort "cannot create the Atmel touchscreen"
node=$(vm_node atmel)
vm_assert_eq "ID_INPUT_TOUCHSCREEN of $node (Atmel)" 1 "$(vm_udev_prop "$node" ID_INPUT_TOUCHSCREEN)"

vm_libinput_start atmel || vm_abort "libinput cannot read $node"
vm_device_play atmel "$taps"
vm_libinput_wait atmel TOUCH_UP 9 20
sleep 1   # anything extra would show up now
vm_libinput_stop atmel
vm_assert_eq "libinput TOUCH_DOWN on $node" 9 "$(vm_libinput_count atmel TOUCH_DOWN)"
vm_assert_eq "libinput TOUCH_UP on $node" 9 "$(vm_libinput_count atmel TOUCH_UP)"

vm_device_create kbd "$VM_DEVICES/keyboard.desc" || vm_abort "cannot create the keyboard"
kbd=$(vm_node kbd)
vm_assert_eq "ID_INPUT_KEYBOARD of $kbd (keyboard)" 1 "$(vm_udev_prop "$kbd" ID_INPUT_KEYBOARD)"
vm_assert_eq "ID_INPUT_TOUCHSCREEN of $kbd (keyboard)" "" "$(vm_udev_prop "$kbd" ID_INPUT_TOUCHSCREEN)"

vm_device_create pen "$VM_DEVICES/pen-display.desc" || vm_abort "cannot create the pen display"
pen=$(vm_node pen)
vm_assert_eq "ID_INPUT_TABLET of $pen (pen display)" 1 "$(vm_udev_prop "$pen" ID_INPUT_TABLET)"
vm_assert_eq "ID_INPUT_TOUCHSCREEN of $pen (pen display)" "" "$(vm_udev_prop "$pen" ID_INPUT_TOUCHSCREEN)"
# The pen recording plays (the kernel accepts its events for this description).
vm_device_play pen "$VM_DEVICES/pen-display.events"
vm_device_play kbd "$VM_DEVICES/keyboard.events"

for h in atmel kbd pen; do vm_device_remove "$h"; done
vm_finish
