#!/bin/sh
# The shipped udev rule (udev/70-gestured-touchscreen.rules, installed where
# `make install` puts it) tags a touchscreen, and nothing else, `uaccess` early
# enough for 73-seat-late.rules to act on it: `udevadm test` of a uinput
# touchscreen runs the uaccess builtin (the ACL for the seat's user), of a
# keyboard and of a pen display it does not. The same rule renamed to sort after
# 73-seat-late.rules still tags the touchscreen but too late for the builtin —
# which shows the check tells the two apart. (A tag, once set, stays in udev's
# database and counts in later events: the tests start without that entry.) (The serial console is no seat:
# here the builtin finds no session to give access to; that is logind's part.)
. "$VM_REPO/Tests/vm/lib.sh"

rules=/usr/local/lib/udev/rules.d
# Only the copy under test: no other scenario's copy of the rule in /etc.
rm -f /etc/udev/rules.d/70-gestured-touchscreen.rules
rule=70-gestured-touchscreen.rules
install -d "$rules"
install -m 0644 "$VM_REPO/udev/$rule" "$rules/$rule"
udevadm control --reload || vm_abort "udevadm control --reload failed"

vm_device_create ts "$VM_FIXTURES/Atmel-maXTouch-Touchscreen.desc" || vm_abort "cannot create the touchscreen"
vm_device_create kbd "$VM_DEVICES/keyboard.desc" || vm_abort "cannot create the keyboard"
vm_device_create pen "$VM_DEVICES/pen-display.desc" || vm_abort "cannot create the pen display"

# utest HANDLE TAG — `udevadm test` of the device's event node as for a device
# udev has not seen (its database entry, whose tags would carry over from the
# real add event, is moved aside meanwhile); the output is kept as test-TAG.txt.
utest() {
    _out=$VM_SCRATCH/test-$2.txt
    _sys=/sys/class/input/$(basename "$(vm_node "$1")")
    _db=$(vm_udev_db "$(vm_node "$1")")
    mv "$_db" "$VM_SCRATCH/db" 2>/dev/null
    udevadm test --action=add "$_sys" > "$_out" 2>&1
    mv "$VM_SCRATCH/db" "$_db" 2>/dev/null
    echo "$_out"
}
# What the test says: the device's TAGS, and whether the uaccess builtin is in its run list.
tags() { sed -n 's/^TAGS=//p' "$1" | tail -n 1; }
runs_uaccess() { grep -q "^run: 'uaccess'" "$1"; }

t=$(utest ts touchscreen)
vm_assert "touchscreen: udev reads our rule file" grep -q "$rule" "$t"
vm_assert "touchscreen: tagged uaccess ($(tags "$t"))" sh -c "echo '$(tags "$t")' | grep -q ':uaccess:'"
vm_assert "touchscreen: 73-seat-late.rules runs the uaccess builtin" runs_uaccess "$t"
vm_assert "touchscreen: the database has the tag too" sh -c "udevadm info --query=property --name='$(vm_node ts)' | grep -q '^TAGS=.*:uaccess:'"

for h in kbd pen; do
    t=$(utest "$h" "$h")
    vm_assert_not "$h: not tagged uaccess ($(tags "$t"))" sh -c "echo '$(tags "$t")' | grep -q ':uaccess:'"
    vm_assert_not "$h: no uaccess builtin" runs_uaccess "$t"
done

# Sorted after 73-seat-late.rules, the tag comes too late.
mv "$rules/$rule" "$rules/90-gestured-too-late.rules"
udevadm control --reload
t=$(utest ts too-late)
vm_assert "too late: the touchscreen is still tagged" sh -c "echo '$(tags "$t")' | grep -q ':uaccess:'"
vm_assert_not "too late: the uaccess builtin does not run" runs_uaccess "$t"
rm -f "$rules/90-gestured-too-late.rules"
udevadm control --reload

for h in ts kbd pen; do vm_device_remove "$h"; done
vm_finish
