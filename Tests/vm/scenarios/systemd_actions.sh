#!/bin/sh
# vm-mode: systemd
# vm-timeout: 420
# `gesturectl actions` as an ordinary user in group gestured, run by that user's own
# systemd manager from the shipped user unit (gestured-actions.service), with the
# phone example config (config/examples/phone.toml: edge swipes, sliders) in the
# daemon. On a uinput touchscreen:
# - swipes in from the left edge run the user's commands as that user, each in a
#   session of its own, with the event on stdin and GESTURE_EDGE; a slow command
#   (sleep 3) does not delay the next swipe's commands;
# - a centre swipe runs the action for it and none of the edge ones;
# - a slide along the left edge (a slider) runs an action without `state` once per
#   step, as many as `gesturectl replay` finds, and not for its ending;
# - no command is left a zombie;
# - saving the file reloads it; a bad save is refused with file:line: key and the
#   actions loaded before keep running;
# - gestured restarts: actions reconnects and runs again. The swipe played then
#   lands on the row where the last one left (the kernel sends no Y for it): the
#   restarted daemon must take the slot's position from the kernel.
. "$VM_REPO/Tests/vm/lib.sh"
. "$VM_REPO/Tests/vm/service_lib.sh"

GESTURED_CONFIG=$VM_REPO/config/examples/phone.toml
svc_install
user=carol
id "$user" >/dev/null 2>&1 || useradd -m -s /bin/sh -G gestured "$user" || vm_abort "useradd $user failed"
uid=$(id -u "$user")
home=$(getent passwd "$user" | cut -d: -f6)
svc_start

# Strokes (mm on a 154 x 86 mm panel): two swipes in from the left edge, 0.4 s apart;
# one more; a centre swipe; a slide down along the left edge.
gen() { python3 "$VM_REPO/Tests/vm/tools/swipe_recording.py" "$@"; }
gen --start 1,43 --move 60,0 --count 2 "$VM_SCRATCH/edge2.events"
gen --start 1,43 --move 60,0 --seed 2 "$VM_SCRATCH/edge.events"
gen --start 47,30 --move 60,0 --seed 3 "$VM_SCRATCH/centre.events"
gen --start 1.5,20 --move 0,35 --seconds 1.0 --seed 4 "$VM_SCRATCH/slide.events"
desc=$VM_SCRATCH/edge2.desc
vm_replay "$desc" "$VM_SCRATCH/edge2.events" "$VM_SCRATCH/expected-edge2.jsonl"
vm_assert_eq "replay: two swipes from the left edge" 2 \
    "$(grep -c '"name":"from_left","kind":"swipe","state":"recognized".*"edge":"left".*"direction":"right"' "$VM_SCRATCH/expected-edge2.jsonl")"
vm_replay "$desc" "$VM_SCRATCH/centre.events" "$VM_SCRATCH/expected-centre.jsonl"
vm_assert_eq "replay: the centre swipe is 'swipe'" 1 "$(grep -c '"name":"swipe","kind":"swipe","state":"recognized"' "$VM_SCRATCH/expected-centre.jsonl")"
vm_replay "$desc" "$VM_SCRATCH/slide.events" "$VM_SCRATCH/expected-slide.jsonl"
steps=$(grep -c '"name":"left_slider".*"step":' "$VM_SCRATCH/expected-slide.jsonl")
vm_assert "replay: the slide is a slider with steps" test "$steps" -ge 3
vm_device_create panel "$desc" || vm_abort "cannot create the touchscreen"
vm_wait_until 20 sh -c "gesturectl status | grep -q '$(vm_node panel)'" || vm_abort "daemon did not pick up $(vm_node panel)"

# What the commands write: the guest's uptime (one clock for all), what, uid, pid, session.
out=$VM_SCRATCH/carol
mkdir -p "$out" && chown "$user" "$out"
log=$out/log
conf=$home/.config/gestured
install -d -o "$user" -m 0755 "$home/.config" "$conf"
write_actions() {  # write_actions TAG — the actions file, saved as editors do (write, rename)
    cat > "$conf/actions.toml.new" <<EOF
max_running = 8

# Slow: 3 s, and says who and where it ran.
[[action]]
kind = "swipe"
edge = "left"
direction = "right"
exec = 'read -r line; echo "\$line" > $out/stdin.json; echo "\$(cut -d" " -f1 /proc/uptime) slow-start \$(id -u) \$\$ \$(cut -d" " -f6 /proc/\$\$/stat)" >> $log; sleep 3; echo "\$(cut -d" " -f1 /proc/uptime) slow-end" >> $log'

# Fast: one line.
[[action]]
kind = "swipe"
edge = ["left", "top_left", "bottom_left"]
exec = 'echo "\$(cut -d" " -f1 /proc/uptime) $1 \$GESTURE_EDGE \$GESTURE_DIRECTION \$(id -u)" >> $log'

[[action]]
name = "swipe"
exec = 'echo "\$(cut -d" " -f1 /proc/uptime) centre \$GESTURE_DIRECTION" >> $log'

# No state: the slider's steps only.
[[action]]
name = "left_slider"
exec = 'echo "\$(cut -d" " -f1 /proc/uptime) step \$GESTURE_STEP \$GESTURE_STATE" >> $log'
EOF
    chown "$user" "$conf/actions.toml.new"
    mv "$conf/actions.toml.new" "$conf/actions.toml"
}
write_actions fast
svc_as "$user" env HOME="$home" gesturectl actions --check > "$VM_SCRATCH/check.out" 2>&1
vm_assert "gesturectl actions --check accepts the file" grep -q "ok: 4 actions, max_running 8" "$VM_SCRATCH/check.out"

# The user unit, where make install puts it.
install -d /usr/local/lib/systemd/user
sed 's|@BINDIR@|/usr/local/bin|g' "$VM_REPO/systemd/user/gestured-actions.service" \
    > /usr/local/lib/systemd/user/gestured-actions.service

# The user's manager. Debian's systemd package ships /etc/pam.d/systemd-user; this
# image lacks it, so it is written here as Debian has it (without SELinux). Its
# pam_systemd gives the manager XDG_RUNTIME_DIR, which user-runtime-dir@ creates.
[ -e /etc/pam.d/systemd-user ] || printf '%s\n' 'account include common-account' \
    'session optional pam_keyinit.so force revoke' 'session optional pam_limits.so' \
    'session include common-session' > /etc/pam.d/systemd-user
as_user() { svc_as "$user" env HOME="$home" XDG_RUNTIME_DIR="/run/user/$uid" "$@"; }
if systemctl start "user@$uid.service" && [ "$(systemctl is-active "user@$uid.service")" = active ]; then
    mode=unit
    as_user systemctl --user daemon-reload
    vm_assert "systemctl --user enable gestured-actions" as_user systemctl --user enable gestured-actions.service
    vm_assert "enable hooks it into graphical-session.target" \
        test -L "$home/.config/systemd/user/graphical-session.target.wants/gestured-actions.service"
    as_user systemctl --user start gestured-actions.service || vm_fail "systemctl --user start gestured-actions failed"
    main=$(as_user systemctl --user show -p MainPID --value gestured-actions.service)
    journal() { journalctl --no-pager -o cat "_SYSTEMD_USER_UNIT=gestured-actions.service"; }
else
    journalctl --no-pager -u "user@$uid.service" > "$VM_SCRATCH/user-manager.journal" 2>&1
    vm_note "the user manager did not start ($(systemctl is-active "user@$uid.service")); running gesturectl actions by hand"
    mode=hand
    setpriv --reuid="$user" --regid="$(id -g "$user")" --init-groups -- env HOME="$home" gesturectl actions \
        2> "$VM_SCRATCH/actions.err" &
    main=$!
    _vm_track "$main"
    journal() { cat "$VM_SCRATCH/actions.err"; }
fi
journal_has() { journal 2>/dev/null | grep -q "$1"; }
vm_note "gesturectl actions: $mode, pid $main"
vm_wait_until 30 sh -c "gesturectl status | grep -q 'subscribers: 1'" || vm_abort "actions did not subscribe: $(gesturectl status | tail -3); $(journal | tail -5)"
vm_assert_eq "gesturectl actions runs as $user" "$uid" "$(awk '/^Uid:/ {print $2}' "/proc/$main/status" 2>/dev/null)"
vm_assert_eq "gesturectl actions runs in gesture-run from libexec" /usr/local/libexec/gestured/gesture-run "$(readlink "/proc/$main/exe")"
vm_assert_eq "gesturectl actions is still named gesturectl" gesturectl "$(cat "/proc/$main/comm")"

# Two edge swipes, 0.4 s apart: the first one's slow command must not hold up the second's.
vm_device_play panel "$VM_SCRATCH/edge2.events"
vm_wait_until 30 sh -c "[ \$(grep -c slow-end $log 2>/dev/null) -ge 2 ]" || vm_fail "the slow commands did not both end: $(cat "$log")"
vm_note "log: $(tr '\n' ';' < "$log")"
vm_assert_eq "each edge swipe ran the fast command" 2 "$(grep -c ' fast left right ' "$log")"
vm_assert_eq "each edge swipe ran the slow command" 2 "$(grep -c ' slow-start ' "$log")"
vm_assert_eq "every command ran as $user (uid $uid)" "" \
    "$(awk -v u="$uid" '/ fast / && $5 != u || / slow-start / && $3 != u' "$log")"
vm_assert_eq "every command leads a session of its own (sid = pid)" "" \
    "$(awk '/ slow-start / && $4 != $5' "$log")"
vm_assert "the command read the event on stdin" grep -q '"name":"from_left","kind":"swipe","state":"recognized".*"edge":"left"' "$out/stdin.json"
# Times: the second fast line must come before the first slow command ends, and
# well within the 3 s that waiting for it would have cost.
set -- $(awk '/ fast left right / {print $1}' "$log")
fast1=${1:-0} fast2=${2:-99}
slow_end1=$(awk '/ slow-end/ {print $1; exit}' "$log")
vm_note "first fast at $fast1, second fast at $fast2, first slow command ended at ${slow_end1:-never}"
vm_assert "the second swipe's command ran before the first slow command ended" \
    awk -v a="$fast2" -v b="${slow_end1:-0}" 'BEGIN { exit !(a < b) }'
vm_assert "the second swipe's command ran sooner than the first's 3 s command could have ended" \
    awk -v a="$fast1" -v b="$fast2" 'BEGIN { exit !(b - a < 2.9) }'

# A centre swipe: its own action, none of the edge ones.
vm_device_play panel "$VM_SCRATCH/centre.events"
vm_wait_until 15 grep -q ' centre right' "$log" || vm_fail "the centre swipe's action did not run: $(tail -3 "$log")"
# A slide along the left edge: one line per step, none for the pan's end.
vm_device_play panel "$VM_SCRATCH/slide.events"
vm_wait_until 15 sh -c "[ \$(grep -c ' step ' $log) -ge $steps ]" || vm_fail "the slider's steps did not all run: $(grep ' step ' "$log" | tr '\n' ';')"
sleep 1
vm_assert_eq "the slider ran once per step" "$steps" "$(grep -c ' step ' "$log")"
vm_assert_eq "slider steps went down (+1), began then changed" "began changed" \
    "$(awk '/ step / { if ($3 != 1) print "step " $3; s[$4] = 1 } END { for (k in s) printf "%s ", k }' "$log" | tr ' ' '\n' | sort | xargs)"
vm_assert_eq "edge actions ran for the edge swipes only" 2 "$(grep -c ' fast ' "$log")"

# No zombies: once the commands ended, gesturectl has no dead child left unreaped.
zombies=$(cat /proc/[0-9]*/status 2>/dev/null | awk -v p="$main" '
    /^State:/ {z = ($2 == "Z")} /^Pid:/ {pid = $2} /^PPid:/ {if (z && $2 == p) print pid}')
vm_assert_eq "zombie children of gesturectl actions" "" "$zombies"

# Saving the file reloads it.
write_actions reloaded
vm_wait_until 10 journal_has 'reloaded, 4 actions' || vm_fail "no reload logged: $(journal | tail -3)"
vm_device_play panel "$VM_SCRATCH/edge.events"
vm_wait_until 15 grep -q ' reloaded left right ' "$log" || vm_fail "the reloaded action did not run: $(tail -3 "$log")"

# A bad save is refused with file:line: key, and the actions loaded before keep running.
printf '[[action]]\nkind = "swipe"\nexec = "true"\nfinger = 2\n' > "$conf/actions.toml.new"
chown "$user" "$conf/actions.toml.new"; mv "$conf/actions.toml.new" "$conf/actions.toml"
vm_wait_until 10 journal_has 'not reloaded' || vm_fail "the bad file was not reported: $(journal | tail -3)"
vm_assert "the problem names file:line: key" journal_has "$conf/actions.toml:4: action.0.finger: unknown key"

# gestured restarts: actions reconnects and the actions loaded before still run.
restarted=$(date '+%Y-%m-%d %H:%M:%S')
systemctl restart gestured.service
vm_wait_until 30 sh -c "gesturectl status | grep -q 'subscribers: 1'" || vm_fail "actions did not come back after the restart: $(journal | tail -3)"
vm_wait_until 20 sh -c "gesturectl status | grep -q '$(vm_node panel)'" || vm_fail "daemon did not pick up $(vm_node panel) after the restart"
vm_device_play panel "$VM_SCRATCH/edge.events"
vm_wait_until 15 sh -c "[ \$(grep -c ' reloaded left right ' $log) -ge 2 ]" || vm_fail "no action ran after the restart: $(tail -3 "$log")"
vm_assert "it said it reconnected" journal_has "connected to /run/gestured/events.sock"
journal > "$VM_SCRATCH/actions.journal" 2>&1
journalctl --no-pager -u gestured.service --since "$restarted" > "$VM_SCRATCH/gestured-restarted.journal" 2>&1

if [ "$mode" = unit ]; then
    as_user systemctl --user stop gestured-actions.service
    vm_assert_eq "the unit stops cleanly" inactive "$(as_user systemctl --user is-active gestured-actions.service)"
    systemctl stop "user@$uid.service"
fi
vm_assert_eq "daemon still active" active "$(systemctl is-active gestured.service)"
vm_finish
