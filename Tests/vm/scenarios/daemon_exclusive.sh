#!/bin/sh
# An exclusive touchscreen on a real kernel: gestured grabs the panel and makes its
# uinput twin, which `libinput debug-events` reads as a compositor would, while
# strokes play into the panel through its own uinput descriptor (uinput_player.py:
# evemu-play writes into the event node, which the kernel ignores under a grab).
# A tap in the middle arrives at the same place; a left-edge swipe taken by a
# recognizer with consume = true never arrives; a tap in the edge band arrives after
# its lift; a reload keeps the twin; a swipe outlasting the hold bound and a
# three-finger swipe end for libinput as touch cancels; a drag goes through frame by
# frame (what gestured adds to it is timed by daemon_exclusive_latency); `gesturectl
# devices` marks the twin as gestured's; SIGKILL with a finger down removes the twin,
# libinput is left with no finger down on it, and the panel itself reaches libinput
# again.
# vm-timeout: 300
. "$VM_REPO/Tests/vm/lib.sh"
vm_need_binaries

tools=$VM_REPO/Tests/vm/tools
S=$VM_SCRATCH

# Strokes on the stroke panel (154 x 86 mm, 10 units/mm).
python3 "$tools/swipe_recording.py" --start 77,43 --move 0.3,0 --seconds 0.05 "$S/middle-tap.events"
python3 "$tools/swipe_recording.py" --start 1,43 --move 60,0 --seconds 0.25 "$S/edge-swipe.events"
python3 "$tools/swipe_recording.py" --start 2,30 --move 0.3,0 --seconds 0.05 "$S/edge-tap.events"
cp "$S/edge-swipe.events" "$S/edge-swipe-2.events"
cp "$S/middle-tap.events" "$S/middle-tap-2.events"
cp "$S/middle-tap.events" "$S/middle-tap-3.events"
# A steady drag across the middle, 0.5 mm along X every frame at 120 Hz.
python3 "$tools/drag_recording.py" 300 5 120 "$S/drag.events"
# Three fingers: the first lands 40 ms before the others, then all swipe 40 mm right.
python3 - "$S/three-swipe.events" <<'EOF'
import sys
lines, t = [], 1.0
def ev(typ, code, value):
    lines.append("E: %.6f %04x %04x %d\n" % (t, typ, code, value))
def frame(slots):
    for s, x in slots:
        ev(3, 0x2f, s)
        ev(3, 0x35, x)
    ev(0, 0, 0)
ev(3, 0x2f, 0); ev(3, 0x39, 21); ev(3, 0x35, 500); ev(3, 0x36, 300); ev(1, 0x14a, 1); ev(0, 0, 0)
t += 0.04
for s, x in ((1, 650), (2, 800)):
    ev(3, 0x2f, s); ev(3, 0x39, 21 + s); ev(3, 0x35, x); ev(3, 0x36, 300)
ev(0, 0, 0)
for k in range(1, 25):
    t += 1 / 120.0
    frame([(0, 500 + 17 * k), (1, 650 + 17 * k), (2, 800 + 17 * k)])
t += 1 / 120.0
for s in range(3):
    ev(3, 0x2f, s); ev(3, 0x39, -1)
ev(1, 0x14a, 0); ev(0, 0, 0)
open(sys.argv[1], "w").write("".join(lines))
EOF
printf 'E: 1.000000 0003 002f 0\nE: 1.000000 0003 0039 9\nE: 1.000000 0003 0035 700\nE: 1.000000 0003 0036 430\nE: 1.000000 0001 014a 1\nE: 1.000000 0003 0000 700\nE: 1.000000 0003 0001 430\nE: 1.000000 0000 0000 0\n' > "$S/finger-down.events"
printf 'E: 1.000000 0003 0039 -1\nE: 1.000000 0001 014a 0\nE: 1.000000 0000 0000 0\n' > "$S/finger-up.events"

cat > "$S/exclusive.toml" <<'EOF'
[recognizer.menu]
kind = "swipe"
edge = "left"
consume = true
# A loaded TCG guest plays strokes slower than recorded.
min_speed_mm_s = 20

[recognizer.three]
kind = "swipe"
fingers = 3
consume = true
min_speed_mm_s = 20

[recognizer.tap]
kind = "tap"

[[device]]
match = "gestured stroke panel"
exclusive = true
# The player paces frames late under TCG (a 0.25 s swipe took 0.42 s): a longer
# bound than the default 300 ms until step 4 makes it 100 ms.
hold_ms = 3000
EOF

# The panel, and a player that plays a recording when told its path.
vm_player_start
vm_assert_eq "ID_INPUT_TOUCHSCREEN of the panel $node" 1 "$(vm_udev_prop "$node" ID_INPUT_TOUCHSCREEN)"
# libinput on the panel itself, as a compositor has it open before gestured starts.
mkdir -p "$(_vm_dev panel)" && echo "$node" > "$(_vm_dev panel)/node"
vm_libinput_start panel || vm_abort "libinput cannot read the panel"

panel_downs=$(vm_libinput_count panel TOUCH_DOWN)

GESTURED_CONFIG=$S/exclusive.toml
vm_daemon_start --failures || vm_abort "gestured did not start"
vm_wait_until 30 grep -q "is exclusive: grabbed" "$_vm_daemon_err" \
    || vm_abort "gestured did not make the panel exclusive: $(tail -c 600 "$_vm_daemon_err")"
twinsys=$(sed -n 's/.*the apps read its twin \(\/sys\/[^,]*\), which.*/\1/p' "$_vm_daemon_err" | head -n1)
twin=/dev/input/$(ls "$twinsys" | grep '^event' | head -n1)
vm_wait_until 10 test -e "$twin" || vm_abort "no node for the twin $twinsys"
vm_udev_settle
vm_note "twin: $twin ($twinsys)"
vm_assert_eq "the twin's name" "gestured stroke panel" "$(cat "$twinsys/name")"
vm_assert_eq "the twin's ID_INPUT_TOUCHSCREEN" 1 "$(vm_udev_prop "$twin" ID_INPUT_TOUCHSCREEN)"
vm_assert_eq "the twin's properties (INPUT_PROP_DIRECT)" "$(cat "/sys/class/input/$(basename "$node")/device/properties")" \
    "$(cat "$twinsys/properties")"
vm_assert_eq "the twin's id" "$(cat /sys/class/input/$(basename "$node")/device/id/vendor):$(cat /sys/class/input/$(basename "$node")/device/id/product)" \
    "$(cat "$twinsys/id/vendor"):$(cat "$twinsys/id/product")"
vm_assert_not "gestured does not open its own twin" vm_daemon_holds "$twin"
"$VM_GESTURECTL" devices --config "$S/exclusive.toml" > "$S/devices.txt" 2>&1
vm_assert "gesturectl devices marks the twin as gestured's" sh -c "grep '^$twin ' '$S/devices.txt' | grep -qF 's twin of $node'"
vm_assert "gesturectl devices has the panel in use" sh -c "grep '^$node ' '$S/devices.txt' | grep -qF 'in use'"

mkdir -p "$(_vm_dev twin)" && echo "$twin" > "$(_vm_dev twin)/node"
vm_libinput_start twin || vm_abort "libinput cannot read the twin"
grep -m1 DEVICE_ADDED "$(_vm_dev twin)/libinput.log" | sed 's/^/note: libinput: /' >> "$_vm_details"

# 1. A tap in the middle arrives, at the same place.
vm_player_play "$S/middle-tap.events"
vm_libinput_wait twin TOUCH_UP 1 20 || vm_fail "the middle tap did not reach the twin"
vm_daemon_wait_for '.name == "tap" and .state == "recognized"' 10 || vm_fail "gestured did not recognize the tap"
vm_assert_eq "twin TOUCH_DOWN after the middle tap" 1 "$(vm_libinput_count twin TOUCH_DOWN)"
down=$(grep -m1 '[[:space:]]TOUCH_DOWN[[:space:]]' "$(_vm_dev twin)/libinput.log")
vm_note "libinput on the twin: $down"
vm_assert "the middle tap lands at 77/43 mm on the twin" sh -c "echo '$down' | grep -q '77\.[0-9]*/43\.[0-9]*mm'"

# 2. A left-edge swipe the consuming recognizer takes never arrives.
vm_player_play "$S/edge-swipe.events"
vm_daemon_wait_for '.name == "menu" and .state == "recognized"' 20 || vm_fail "gestured did not recognize the edge swipe"
sleep 1
vm_assert_eq "twin TOUCH_DOWN after the consumed edge swipe" 1 "$(vm_libinput_count twin TOUCH_DOWN)"

# 3. A tap in the edge band arrives, at its place, once the edge swipe has failed
# (held until then: its frames reach the twin closer together than the middle
# tap's, which went frame by frame).
vm_player_play "$S/edge-tap.events"
vm_libinput_wait twin TOUCH_UP 2 20 || vm_fail "the edge tap did not reach the twin"
vm_assert_eq "twin TOUCH_DOWN after the edge tap" 2 "$(vm_libinput_count twin TOUCH_DOWN)"
down=$(grep '[[:space:]]TOUCH_DOWN[[:space:]]' "$(_vm_dev twin)/libinput.log" | sed -n 2p)
vm_assert "the edge tap lands at 2/30 mm on the twin" sh -c "echo '$down' | grep -q '2\.[0-9]*/30\.[0-9]*mm'"
# (libinput prints its first event's time wrapped around: the middle tap's down.)
spans=$(awk '$2 == "TOUCH_DOWN" || $2 == "TOUCH_UP" { gsub(/[+s]/, "", $3); t[++n] = $3 }
    END { printf "%.3f %.3f", (t[1] > 4000000 ? t[2] : t[2] - t[1]), t[4] - t[3] }' "$(_vm_dev twin)/libinput.log")
vm_note "down to up on the twin (s): middle tap ${spans% *}, edge tap ${spans#* }"
vm_assert "the edge tap was held back (it reached the twin faster than it was played)" \
    awk "BEGIN { exit !(${spans#* } < ${spans% *}) }"

# 3b. A three-finger swipe taken by a consuming recognizer: its first finger,
# down alone, went to the apps; the two that joined were withheld; the swipe ends
# the first for libinput as a touch cancel, and no touch of it ends as a lift.
from=$(vm_daemon_mark)
vm_player_play "$S/three-swipe.events"
vm_daemon_wait_for '.name == "three" and .state == "recognized"' 20 "$from" || vm_fail "gestured did not recognize the three-finger swipe"
vm_libinput_wait twin TOUCH_CANCEL 1 20 || vm_fail "libinput saw no touch cancel for the three-finger swipe"
vm_assert_eq "twin TOUCH_DOWN after the three-finger swipe (its first finger only)" 3 "$(vm_libinput_count twin TOUCH_DOWN)"
vm_assert_eq "twin TOUCH_UP after the three-finger swipe" 2 "$(vm_libinput_count twin TOUCH_UP)"

# 4. A reload keeps the twin, and its new hold_ms applies.
sed -i 's/^hold_ms = 3000$/hold_ms = 100/' "$S/exclusive.toml"
kill -HUP "$(vm_daemon_pid)"
vm_wait_until 20 grep -q "SIGHUP: loaded" "$_vm_daemon_err" || vm_fail "gestured did not reload"
vm_assert "the twin outlives a reload" test -e "$twin"
vm_assert_eq "the twin after a reload" "$twinsys" "$(sed -n 's/.*the apps read its twin \(\/sys\/[^,]*\), which.*/\1/p' "$_vm_daemon_err" | tail -n1)"

# 5. A swipe that outlasts the bound (now 100 ms): the apps get it when the bound
# passes, and when the swipe is recognized at its lift it ends for them as a palm,
# which libinput makes a touch cancel.
from=$(vm_daemon_mark)
vm_player_play "$S/edge-swipe-2.events"
vm_daemon_wait_for '.name == "menu" and .state == "recognized"' 20 "$from" || vm_fail "gestured did not recognize the second edge swipe"
vm_libinput_wait twin TOUCH_CANCEL 2 20 || vm_fail "libinput saw no touch cancel for the swipe released by the bound"
vm_assert_eq "twin TOUCH_DOWN after the swipe released by the bound" 4 "$(vm_libinput_count twin TOUCH_DOWN)"
vm_assert_eq "twin TOUCH_UP after the swipe released by the bound" 2 "$(vm_libinput_count twin TOUCH_UP)"
grep '[[:space:]]TOUCH_CANCEL[[:space:]]' "$(_vm_dev twin)/libinput.log" | tail -n1 | sed 's/^/note: libinput: /' >> "$_vm_details"

# 6. A drag in the middle goes through.
vm_player_play "$S/drag.events"
vm_libinput_wait twin TOUCH_UP 3 20 || vm_fail "the drag did not reach the twin"
vm_assert_eq "twin TOUCH_DOWN after the drag" 5 "$(vm_libinput_count twin TOUCH_DOWN)"

# 6b. A stopped gestured (SIGSTOP, a stall) keeps the grab and the twin: the apps
# get nothing meanwhile (under systemd, until the watchdog kills it); once it runs
# again, what the kernel kept for it arrives.
kill -STOP "$(vm_daemon_pid)"
vm_player_play "$S/middle-tap-3.events"
sleep 2
vm_assert_eq "twin TOUCH_DOWN while gestured is stopped" 5 "$(vm_libinput_count twin TOUCH_DOWN)"
kill -CONT "$(vm_daemon_pid)"
vm_libinput_wait twin TOUCH_UP 4 20 || vm_fail "the tap played while gestured was stopped did not arrive after SIGCONT"
vm_note "while gestured was stopped the twin got nothing for 2 s; after SIGCONT the tap arrived"

# 7. SIGKILL with a finger down: the twin goes, with no finger left down on it,
# and the panel itself reaches libinput again.
vm_player_play "$S/finger-down.events"
vm_libinput_wait twin TOUCH_DOWN 7 20 || vm_fail "the finger did not reach the twin"
killed=$(vm_uptime)
kill -KILL "$(vm_daemon_pid)"
vm_wait_until 10 _vm_absent "$twin" || vm_fail "the twin $twin outlived the daemon"
vm_wait_until 10 grep -q DEVICE_REMOVED "$(_vm_dev twin)/libinput.log" || vm_fail "libinput did not see the twin go"
gone=$(vm_uptime)
vm_note "the twin was gone $(awk "BEGIN { printf \"%.2f\", $gone - $killed }") s after SIGKILL"
sleep 1
log=$(_vm_dev twin)/libinput.log
downs=$(vm_libinput_count twin TOUCH_DOWN)
ups=$(vm_libinput_count twin TOUCH_UP)
cancels=$(vm_libinput_count twin TOUCH_CANCEL)
vm_note "libinput on the twin: $downs TOUCH_DOWN, $ups TOUCH_UP, $cancels TOUCH_CANCEL"
vm_assert_eq "touches libinput saw begin on the twin and did not see end" 0 "$((downs - ups - cancels))"
vm_player_play "$S/finger-up.events"
vm_player_play "$S/middle-tap-2.events"
vm_libinput_wait panel TOUCH_DOWN "$((panel_downs + 1))" 20 \
    || vm_fail "after SIGKILL the panel itself did not reach libinput"
vm_assert_eq "the panel's own TOUCH_DOWN while gestured held it" "$((panel_downs + 1))" "$(vm_libinput_count panel TOUCH_DOWN)"

exec 7>&-
vm_libinput_stop twin
vm_libinput_stop panel
vm_finish
