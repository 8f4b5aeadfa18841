#!/bin/sh
# vm-mode: systemd
# vm-timeout: 240
# A stalled gestured does not freeze an exclusive touchscreen for longer than the
# watchdog. The shipped unit, with the shipped drop-in for an exclusive device
# (config/examples/gestured-exclusive.conf: /dev/uinput for a group of its own, by
# config/examples/72-gestured-uinput.rules, which is shown to reach the static node
# a Debian boot makes before uinput is loaded, and WatchdogSec=3s), grabs a uinput panel (uinput_player.py) and makes its twin, which
# libinput reads as a compositor would, beside the panel itself. A finger goes down,
# then gestured is stopped (SIGSTOP) with the finger still down: systemd's watchdog
# kills it with SIGABRT (not the SIGKILL TimeoutStopSec= later: the unit turns the
# Swift runtime's backtracer off, which survived SIGABRT when it failed in the
# sandbox), the twin goes (the time from SIGSTOP is printed), libinput ends the
# twin's touch, and the panel itself reaches libinput again. systemd then restarts
# gestured, which grabs the panel and makes a twin again.
. "$VM_REPO/Tests/vm/lib.sh"
. "$VM_REPO/Tests/vm/service_lib.sh"

tools=$VM_REPO/Tests/vm/tools
S=$VM_SCRATCH
watchdog=3

cat > "$S/exclusive.toml" <<'EOF'
[recognizer.menu]
kind = "swipe"
edge = "left"
consume = true

[recognizer.tap]
kind = "tap"

[[device]]
match = "gestured stroke panel"
exclusive = true
EOF
GESTURED_CONFIG=$S/exclusive.toml
svc_install

# The shipped udev rule and drop-in for an exclusive device
# (config/examples/72-gestured-uinput.rules, gestured-exclusive.conf), installed as
# README says. First /dev/uinput as a Debian boot leaves it: uinput (a module)
# not loaded, the node a static one made from modules.devname (kmod static-nodes,
# systemd-tmpfiles-setup-dev), root's alone. The guest's init loaded uinput; unload
# it and make the static node as the boot does.
getent group uinput >/dev/null || groupadd -r uinput || vm_abort "groupadd uinput failed"
static=no
if rmmod uinput 2>"$S/rmmod.err"; then
    kmod static-nodes --format=tmpfiles --output=/run/tmpfiles.d/static-nodes.conf
    systemd-tmpfiles --prefix=/dev --create --boot 2>"$S/tmpfiles.err"
    if [ -c /dev/uinput ] && [ ! -d /sys/module/uinput ]; then
        static=yes
        vm_assert_eq "the static /dev/uinput before the rule" "root root 600" "$(stat -c '%U %G %a' /dev/uinput)"
        # The rule README had before, without static_node=: udevd started with it
        # (as at boot) leaves the static node root's alone.
        echo 'KERNEL=="uinput", GROUP="uinput", MODE="0660"' > /etc/udev/rules.d/72-gestured-uinput.rules
        systemctl restart systemd-udevd.service || vm_fail "systemctl restart systemd-udevd failed"
        vm_udev_settle
        vm_assert_eq "the static /dev/uinput under a rule without static_node=" "root root 600" "$(stat -c '%U %G %a' /dev/uinput)"
    else
        vm_note "no static /dev/uinput after systemd-tmpfiles: $(cat "$S/tmpfiles.err")"
    fi
else
    vm_note "uinput cannot be unloaded ($(cat "$S/rmmod.err")): the static node is not shown"
fi
install -m 0644 "$VM_REPO/config/examples/72-gestured-uinput.rules" /etc/udev/rules.d/72-gestured-uinput.rules
udevadm control --reload
udevadm trigger --action=change --sysname-match=uinput
vm_udev_settle
if [ $static = yes ]; then
    # A rule for the device alone applies once the module is loaded; static_node=
    # is applied by udevd when it starts, as at boot.
    vm_note "the static /dev/uinput after udevadm control --reload and trigger: $(stat -c '%U %G %a' /dev/uinput)"
    systemctl restart systemd-udevd.service || vm_fail "systemctl restart systemd-udevd failed"
    vm_udev_settle
    vm_assert_eq "the static /dev/uinput once udevd started with the rule" "root uinput 660" "$(stat -c '%U %G %a' /dev/uinput)"
    vm_assert_not "uinput still not loaded" test -d /sys/module/uinput
    # A member of group uinput, not root, opening it loads the module (as gestured will).
    vm_assert "a member of group uinput opens the static /dev/uinput" \
        setpriv --reuid=gestured --regid=gestured --groups=uinput -- sh -c 'exec 3<>/dev/uinput'
    vm_assert "that open loaded uinput" test -d /sys/module/uinput
    vm_udev_settle
fi
vm_assert_eq "/dev/uinput after the udev rule" "root uinput 660" "$(stat -c '%U %G %a' /dev/uinput)"
install -D -m 0644 "$VM_REPO/config/examples/gestured-exclusive.conf" /etc/systemd/system/gestured.service.d/exclusive.conf
systemctl daemon-reload

printf 'E: 1.000000 0003 002f 0\nE: 1.000000 0003 0039 9\nE: 1.000000 0003 0035 700\nE: 1.000000 0003 0036 430\nE: 1.000000 0001 014a 1\nE: 1.000000 0003 0000 700\nE: 1.000000 0003 0001 430\nE: 1.000000 0000 0000 0\n' > "$S/finger-down.events"
printf 'E: 1.000000 0003 0039 -1\nE: 1.000000 0001 014a 0\nE: 1.000000 0000 0000 0\n' > "$S/finger-up.events"
python3 "$tools/swipe_recording.py" --start 77,43 --move 0.3,0 --seconds 0.05 "$S/tap.events"
cp "$S/tap.events" "$S/tap-2.events"
cp "$S/tap.events" "$S/tap-3.events"

vm_player_start
# twin_of N: the twin's node named in the Nth "is exclusive" line of the journal.
twin_of() {
    _sys=$(svc_journal | sed -n 's/.*the apps read its twin \(\/sys\/[^,]*\), which.*/\1/p' | sed -n "${1}p")
    [ -n "$_sys" ] && ls "$_sys" 2>/dev/null | grep '^event' | head -n1 | sed 's|^|/dev/input/|'
}
_exclusive_lines() { [ "$(svc_journal | grep -c 'is exclusive: grabbed')" -ge "$1" ]; }

# libinput on the panel itself, as a compositor has it open.
mkdir -p "$(_vm_dev panel)" && echo "$node" > "$(_vm_dev panel)/node"
vm_libinput_start panel || vm_abort "libinput cannot read the panel"

svc_start
vm_assert_eq "the unit's watchdog" "${watchdog}s" "$(systemctl show -P WatchdogUSec gestured.service)"
vm_wait_until 30 _exclusive_lines 1 || vm_abort "gestured did not make the panel exclusive: $(svc_journal | tail -n 5)"
twin=$(twin_of 1)
vm_wait_until 10 test -e "$twin" || vm_abort "no node for the twin ($twin)"
vm_udev_settle
vm_note "panel $node, twin $twin"
mkdir -p "$(_vm_dev twin)" && echo "$twin" > "$(_vm_dev twin)/node"
vm_libinput_start twin || vm_abort "libinput cannot read the twin"

vm_player_play "$S/tap.events"
vm_libinput_wait twin TOUCH_UP 1 20 || vm_fail "a tap did not reach the twin"
vm_assert_eq "the panel's own TOUCH_DOWN while gestured holds it" 0 "$(vm_libinput_count panel TOUCH_DOWN)"

# A finger down, then the stall.
vm_player_play "$S/finger-down.events"
vm_libinput_wait twin TOUCH_DOWN 2 20 || vm_fail "the finger did not reach the twin"
pid=$(systemctl show -P MainPID gestured.service)
stopped=$(vm_uptime)
kill -STOP "$pid"
vm_wait_until $((watchdog * 10)) _vm_absent "$twin" || vm_fail "the twin $twin outlived the stall by $((watchdog * 10)) s"
gone=$(vm_uptime)
# The grab went with it: the panel reaches libinput before systemd's restart
# (RestartSec=1s) grabs it again. The finger still down was never seen by this
# reader: lifting it makes nothing; a tap arrives.
vm_player_play "$S/finger-up.events"
vm_player_play "$S/tap-2.events"
vm_libinput_wait panel TOUCH_UP 1 10 || vm_fail "after the watchdog's kill the panel itself did not reach libinput"
vm_note "SIGSTOP to the twin gone: $(awk "BEGIN { printf \"%.2f\", $gone - $stopped }") s (WatchdogSec=${watchdog}s)"
vm_assert "the journal says the watchdog killed gestured" sh -c "journalctl -u gestured.service --no-pager | grep -q 'Watchdog timeout'"
# The journal's monotonic times are the guest's uptime: SIGSTOP was at $stopped.
journalctl -u gestured.service --no-pager -o short-monotonic > "$S/journal.txt"
vm_note "SIGSTOP at [$stopped], the twin seen gone at [$gone]; the journal:"
grep -E 'Watchdog timeout|SIGABRT|SIGKILL|Main process exited|Failed with result|Scheduled restart|pinging' "$S/journal.txt" \
    | sed 's/^/note: journal: /' >> "$_vm_details"
vm_assert "SIGABRT ended gestured (the journal: status=6/ABRT)" grep -q 'Main process exited, code=[a-z]*, status=6/ABRT' "$S/journal.txt"
vm_wait_until 10 grep -q DEVICE_REMOVED "$(_vm_dev twin)/libinput.log" || vm_fail "libinput did not see the twin go"
downs=$(vm_libinput_count twin TOUCH_DOWN)
ends=$(( $(vm_libinput_count twin TOUCH_UP) + $(vm_libinput_count twin TOUCH_CANCEL) ))
vm_note "libinput on the twin: $downs TOUCH_DOWN, $ends TOUCH_UP or TOUCH_CANCEL"
vm_assert_eq "touches libinput saw begin on the twin and did not see end" 0 "$((downs - ends))"
vm_assert_eq "touches libinput saw begin on the panel and did not see end" \
    "$(vm_libinput_count panel TOUCH_DOWN)" "$(vm_libinput_count panel TOUCH_UP)"

# systemd restarts it; it grabs the panel and makes a twin again.
vm_wait_until 60 _exclusive_lines 2 || vm_fail "the restarted gestured did not make the panel exclusive again"
vm_assert_eq "restarts" 1 "$(systemctl show -P NRestarts gestured.service)"
twin2=$(twin_of 2)
vm_wait_until 10 test -e "$twin2" || vm_fail "no node for the new twin ($twin2)"
vm_udev_settle
mkdir -p "$(_vm_dev twin2)" && echo "$twin2" > "$(_vm_dev twin2)/node"
vm_libinput_start twin2 || vm_fail "libinput cannot read the new twin"
panel_downs=$(vm_libinput_count panel TOUCH_DOWN)
vm_player_play "$S/tap-3.events"
vm_libinput_wait twin2 TOUCH_UP 1 20 || vm_fail "a tap did not reach the new twin"
vm_assert_eq "the panel's own TOUCH_DOWN once grabbed again" "$panel_downs" "$(vm_libinput_count panel TOUCH_DOWN)"

exec 7>&-
vm_libinput_stop twin2
vm_libinput_stop twin
vm_libinput_stop panel
systemctl stop gestured.service gestured.socket
rm -rf /etc/systemd/system/gestured.service.d
systemctl daemon-reload
vm_finish
