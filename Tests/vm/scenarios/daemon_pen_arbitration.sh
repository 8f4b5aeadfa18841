#!/bin/sh
# Touch arbitration on a real kernel: a uinput touchscreen and a uinput pen made one
# device by a udev rule (LIBINPUT_DEVICE_GROUP, as libinput's helper sets it for the
# two nodes of a pen display). gestured must open the pen node beside the screen;
# a pan in progress ends `cancelled` with reason "pen in proximity" when the pen
# comes; a palm drag while the pen hovers makes no event at all; once the pen has
# left (past [pen] release_ms, 90 ms), the same drag is a swipe. And on a
# touchscreen without a pen, a touch the kernel marks MT_TOOL_PALM cancels the pan
# with reason "palm".
. "$VM_REPO/Tests/vm/lib.sh"
vm_need_binaries

pen_fixtures=$VM_REPO/Tests/fixtures/pen
S=$VM_SCRATCH
mkdir -p "$S"

# One group for the two nodes, after libinput's own rule (80-libinput-device-groups).
mkdir -p /etc/udev/rules.d
cat > /etc/udev/rules.d/99-gestured-test-pen-display.rules <<'RULE'
SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="Gestured Test Pen Display *", ENV{LIBINPUT_DEVICE_GROUP}="gestured-test-pen-display"
RULE
udevadm control --reload-rules || vm_fail "udevadm control --reload-rules failed"

# Recordings, written here: evemu-play keeps their timing.
# drag FILE ID X0 X1 Y [lift]: one finger from X0 to X1 in 12 steps, 12 ms apart.
awk -v id=1 -v lift=1 -v x0=800 -v x1=3200 -v y=1600 'BEGIN {
    printf "E: 0.000000 0003 002f 0\nE: 0.000000 0003 0039 %d\nE: 0.000000 0003 0035 %d\n", id, x0
    printf "E: 0.000000 0003 0036 %d\nE: 0.000000 0001 014a 1\nE: 0.000000 0000 0000 0\n", y
    for (i = 1; i <= 12; i++) printf "E: 0.%06d 0003 0035 %d\nE: 0.%06d 0000 0000 0\n", i * 12000, x0 + (x1 - x0) * i / 12, i * 12000
    printf "E: 0.156000 0003 0039 -1\nE: 0.156000 0001 014a 0\nE: 0.156000 0000 0000 0\n" }' > "$S/drag.events"
# A finger down and moving 100 mm, not lifted; then its lift.
awk 'BEGIN {
    printf "E: 0.000000 0003 002f 0\nE: 0.000000 0003 0039 7\nE: 0.000000 0003 0035 800\n"
    printf "E: 0.000000 0003 0036 1600\nE: 0.000000 0001 014a 1\nE: 0.000000 0000 0000 0\n"
    for (i = 1; i <= 8; i++) printf "E: 0.%06d 0003 0035 %d\nE: 0.%06d 0000 0000 0\n", i * 20000, 800 + 200 * i, i * 20000 }' > "$S/hold.events"
printf 'E: 0.000000 0003 0039 -1\nE: 0.000000 0001 014a 0\nE: 0.000000 0000 0000 0\n' > "$S/lift.events"
# A tap in a corner, away from the drags.
printf 'E: 0.000000 0003 002f 0\nE: 0.000000 0003 0039 5\nE: 0.000000 0003 0035 300\nE: 0.000000 0003 0036 300\nE: 0.000000 0001 014a 1\nE: 0.000000 0000 0000 0\nE: 0.040000 0003 0039 -1\nE: 0.040000 0001 014a 0\nE: 0.040000 0000 0000 0\n' > "$S/tap.events"
printf 'E: 0.000000 0001 0140 1\nE: 0.000000 0003 0000 4000\nE: 0.000000 0003 0001 2000\nE: 0.000000 0000 0000 0\n' > "$S/pen-in.events"
printf 'E: 0.000000 0001 0140 0\nE: 0.000000 0000 0000 0\n' > "$S/pen-out.events"
# The Atmel panel (800 × 480 units): a finger moving, then flagged a palm, then lifted.
awk 'BEGIN {
    printf "E: 0.000000 0003 002f 0\nE: 0.000000 0003 0039 9\nE: 0.000000 0003 0037 0\nE: 0.000000 0003 0035 100\n"
    printf "E: 0.000000 0003 0036 240\nE: 0.000000 0001 014a 1\nE: 0.000000 0000 0000 0\n"
    for (i = 1; i <= 8; i++) printf "E: 0.%06d 0003 0035 %d\nE: 0.%06d 0000 0000 0\n", i * 20000, 100 + 30 * i, i * 20000 }' > "$S/atmel-hold.events"
printf 'E: 0.000000 0003 0037 2\nE: 0.000000 0000 0000 0\n' > "$S/atmel-palm.events"
printf 'E: 0.000000 0003 0039 -1\nE: 0.000000 0001 014a 0\nE: 0.000000 0000 0000 0\n' > "$S/atmel-lift.events"

# count JQ_CONDITION FILE
count() { jq -c "select($1)" < "$2" | wc -l; }

vm_daemon_start --failures --trace pan || vm_abort "gestured did not come up"
vm_device_create touch "$pen_fixtures/pen-display-touch.desc" || vm_abort "cannot create the touchscreen"
vm_device_create pen "$pen_fixtures/pen-display-pen.desc" || vm_abort "cannot create the pen"
vm_log "groups: touch '$(vm_udev_prop "$(vm_node touch)" LIBINPUT_DEVICE_GROUP)', pen '$(vm_udev_prop "$(vm_node pen)" LIBINPUT_DEVICE_GROUP)'; pen ID_INPUT_TABLET=$(vm_udev_prop "$(vm_node pen)" ID_INPUT_TABLET)"
vm_daemon_wait_opens touch 20 || vm_abort "the daemon never opened the touchscreen"
vm_wait_until 20 vm_daemon_holds "$(vm_node pen)" \
    || vm_fail "gestured did not open the pen $(vm_node pen) beside its touchscreen: $(grep -i pen "$_vm_daemon_err" | tail -n 3)"

# 1. A pan in progress; the pen comes: the pan is cancelled with the reason.
mark=$(vm_daemon_mark)
vm_device_play touch "$S/hold.events"
vm_daemon_wait_for '.kind == "pan" and .state == "began"' 30 "$mark" || vm_fail "no pan began for the held finger"
vm_device_play pen "$S/pen-in.events"
vm_daemon_wait_for '.kind == "pan" and .state == "cancelled"' 30 "$mark" \
    || vm_fail "the pan was not cancelled when the pen came into proximity"
vm_device_play touch "$S/lift.events"
vm_daemon_wait_quiet 2 20
vm_daemon_events "$mark" > "$S/in-progress.events"
vm_log "pan in progress, pen comes: $(vm_project < "$S/in-progress.events" | uniq -c | tr '\n' ';')"
vm_assert_eq "the pan's cancellation says why" '"pen in proximity"' \
    "$(jq -c 'select(.kind == "pan" and .state == "cancelled") | .reason' < "$S/in-progress.events" | head -n 1)"
vm_assert_eq "events after the cancellation (the finger lifting)" 0 \
    "$(jq -c 'select(.kind == "pan" and .state == "ended")' < "$S/in-progress.events" | wc -l)"

# 2. The pen hovers; the palm drags: nothing at all.
mark=$(vm_daemon_mark)
vm_device_play touch "$S/drag.events"
vm_daemon_wait_quiet 2 20
vm_daemon_events "$mark" > "$S/palm.events"
vm_assert_eq "gesture events (failures included) for a palm drag while the pen hovers" 0 "$(wc -l < "$S/palm.events")" \
    || vm_note "events: $(head -c 600 "$S/palm.events")"
vm_assert "the trace tells of the palm's touch set aside" \
    grep -q "set aside as it landed, starting nothing: pen in proximity" "$_vm_daemon_err"

# 3. The pen leaves; once its release time is over (a tap is heard of again,
# however busy the machine), the same drag is a swipe.
vm_device_play pen "$S/pen-out.events"
tap_heard() {
    _m=$(vm_daemon_mark)
    vm_device_play touch "$S/tap.events"
    vm_daemon_wait_for '.kind == "tap"' 3 "$_m"
}
vm_wait_until 60 tap_heard || vm_fail "no tap was heard of after the pen left"
vm_daemon_wait_quiet 1 20
mark=$(vm_daemon_mark)
vm_device_play touch "$S/drag.events"
vm_daemon_wait_for '.kind == "swipe" and .state == "recognized"' 30 "$mark" || vm_fail "no swipe after the pen left"
vm_daemon_wait_quiet 2 20
vm_daemon_events "$mark" > "$S/after.events"
vm_assert_eq "swipes recognized after the pen left" 1 "$(count '.kind == "swipe" and .state == "recognized"' "$S/after.events")"

# 4. MT_TOOL_PALM on a touchscreen with no pen.
vm_device_create atmel "$VM_FIXTURES/Atmel-maXTouch-Touchscreen.desc" || vm_abort "cannot create the Atmel touchscreen"
vm_daemon_wait_opens atmel 20 || vm_abort "the daemon never opened the Atmel touchscreen"
mark=$(vm_daemon_mark)
vm_device_play atmel "$S/atmel-hold.events"
vm_daemon_wait_for '.kind == "pan" and .state == "began"' 30 "$mark" || vm_fail "no pan began on the Atmel panel"
vm_device_play atmel "$S/atmel-palm.events"
vm_daemon_wait_for '.kind == "pan" and .state == "cancelled"' 30 "$mark" || vm_fail "MT_TOOL_PALM did not cancel the pan"
vm_device_play atmel "$S/atmel-lift.events"
vm_daemon_wait_quiet 2 20
vm_daemon_events "$mark" > "$S/palm-tool.events"
vm_assert_eq "the palm's cancellation says why" '"palm"' \
    "$(jq -c 'select(.kind == "pan" and .state == "cancelled") | .reason' < "$S/palm-tool.events" | head -n 1)"
vm_assert_eq "recognized or ended after the palm" 0 \
    "$(count '.state == "recognized" or .state == "ended"' "$S/palm-tool.events")"

# The pen node going away leaves the screen working; the rule is removed.
vm_device_remove pen
vm_assert "gestured still running" vm_daemon_alive
rm -f /etc/udev/rules.d/99-gestured-test-pen-display.rules
udevadm control --reload-rules
vm_daemon_stop
vm_finish
