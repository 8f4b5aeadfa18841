#!/bin/sh
# lisgd_differential: lisgd itself (Debian's 0.3.7) and `gesturectl lisgd` read the
# same uinput touchscreen at the same time while 49 labelled phone strokes play
# (Tests/fixtures/phone, from Tests/vm/tools/gen_phone_strokes.py), with the same
# Sxmo-like bindings (Sxmo's hook without -s, which 0.3.7 lacks). Each command
# appends the uptime and its binding's label to its reader's log. Then, per stroke:
# the same binding fired in both; pressed (slider) repeats within 2. A third reader,
# `gesturectl lisgd` without -w/-h, shows the touchscreen's own extent standing in
# for the screen. gesturectl runs as an ordinary user: first refused (no access),
# then let in by an ACL, as logind would for the seat's user after the udev rule
# (checked with `udevadm test`: the touchscreen is tagged uaccess, a keyboard not).
# vm-timeout: 600
# vm-manual: yes
. "$VM_REPO/Tests/vm/lib.sh"
vm_need_binaries
command -v lisgd >/dev/null || vm_skip "no lisgd (Debian package lisgd)"
command -v setfacl >/dev/null || vm_skip "no setfacl (Debian package acl)"

strokes=$VM_REPO/Tests/fixtures/phone/strokes
rules=$VM_REPO/udev/70-gestured-touchscreen.rules
vm_device_create panel "$strokes.desc" || vm_abort "cannot create the touchscreen"
vm_device_create keyboard "$VM_REPO/Tests/vm/devices/keyboard.desc" || vm_abort "cannot create the keyboard"
node=$(vm_node panel)
kbd=$(vm_node keyboard)

# --- The udev rule: the touchscreen gets uaccess from it (and not without it),
# the keyboard does not.
udevadm test --action=add "/sys/class/input/$(basename "$node")" > "$VM_SCRATCH/udevadm-test-panel-before.txt" 2>&1
vm_assert_not "udevadm test: without gestured's rule the touchscreen is not tagged uaccess" \
    grep -Eq 'TAGS=.*:uaccess:' "$VM_SCRATCH/udevadm-test-panel-before.txt"
install -m 0644 "$rules" /etc/udev/rules.d/70-gestured-touchscreen.rules
udevadm test --action=add "/sys/class/input/$(basename "$node")" > "$VM_SCRATCH/udevadm-test-panel.txt" 2>&1
udevadm test --action=add "/sys/class/input/$(basename "$kbd")" > "$VM_SCRATCH/udevadm-test-keyboard.txt" 2>&1
vm_assert "udevadm test: with it the touchscreen is tagged uaccess" grep -Eq 'TAGS=.*:uaccess:' "$VM_SCRATCH/udevadm-test-panel.txt"
vm_assert_not "udevadm test: the keyboard is not tagged uaccess" grep -Eq 'TAGS=.*:uaccess:' "$VM_SCRATCH/udevadm-test-keyboard.txt"

# --- The user: refused without access, with a message that says what to do.
user=lisgduser
id "$user" >/dev/null 2>&1 || useradd -M -s /bin/sh "$user" || vm_abort "useradd $user failed"
as_user() { setpriv --reuid="$user" --regid="$(id -g "$user")" --init-groups -- "$@"; }
as_user "$VM_GESTURECTL" lisgd -d "$node" -g '1,LR,*,*,true' > "$VM_SCRATCH/refused.out" 2> "$VM_SCRATCH/refused.err"
vm_assert_eq "gesturectl lisgd without access exits 1" 1 "$?"
vm_assert "it says permission denied" grep -qi 'permission denied' "$VM_SCRATCH/refused.err"
vm_assert "it names the udev rule" grep -q '70-gestured-touchscreen.rules' "$VM_SCRATCH/refused.err"
setfacl -m "u:$user:r" "$node" || vm_abort "setfacl on $node failed"
vm_assert_not "the user still cannot read the keyboard" as_user sh -c "exec 3< $kbd" 2>/dev/null

# --- The bindings: Sxmo's, in Sxmo's order (Tests/vm/sxmo_lisgd.sh); each command
# appends "UPTIME LABEL" to its reader's log.
. "$VM_REPO/Tests/vm/sxmo_lisgd.sh"
logs=$VM_SCRATCH/logs
mkdir -p "$logs"; chmod 1777 "$logs"
launcher() { _n=$1; shift; sxmo_launcher "$VM_SCRATCH/run-$_n.sh" "$logs/$_n.log" uptime "$@"; }
launcher lisgd lisgd -d "$node" $SXMO_LISGD_OPTIONS
launcher gesturectl "$VM_GESTURECTL" lisgd -d "$node" $SXMO_LISGD_OPTIONS
launcher gesturectl-own-extent "$VM_GESTURECTL" lisgd -d "$node" -t 125 -T 60

sh "$VM_SCRATCH/run-lisgd.sh" > "$VM_SCRATCH/lisgd.out" 2> "$VM_SCRATCH/lisgd.err" &
lisgd_pid=$!; _vm_track $lisgd_pid
gid=$(id -g "$user")
setpriv --reuid="$user" --regid="$gid" --init-groups -- sh "$VM_SCRATCH/run-gesturectl.sh" > "$VM_SCRATCH/gesturectl.out" 2> "$VM_SCRATCH/gesturectl.err" &
gctl_pid=$!; _vm_track $gctl_pid
setpriv --reuid="$user" --regid="$gid" --init-groups -- sh "$VM_SCRATCH/run-gesturectl-own-extent.sh" > "$VM_SCRATCH/gesturectl-own-extent.out" 2> "$VM_SCRATCH/gesturectl-own-extent.err" &
ext_pid=$!; _vm_track $ext_pid
for p in $lisgd_pid $gctl_pid $ext_pid; do
    vm_wait_until 60 vm_pid_holds "$p" "$node" || vm_abort "reader $p never opened $node: $(tail -c 400 "$VM_SCRATCH"/*.err)"
done
vm_assert_eq "gesturectl lisgd runs as $user" "$user" "$(stat -c %U "/proc/$gctl_pid")"
# The same process, replaced by the lean gesture-run (no Foundation, no argument-parser).
vm_assert_eq "gesturectl lisgd runs in gesture-run" "$(readlink -f "$VM_GESTURE_RUN")" "$(readlink "/proc/$gctl_pid/exe")"
sleep 1

# --- Play, then wait until no reader has written for 3 s.
t0=$(vm_uptime)
vm_device_play panel "$strokes.events"
sizes() { cat "$logs"/*.log 2>/dev/null | wc -c; }
last=-1; still=0
while [ "$still" -lt 3 ]; do
    now=$(sizes)
    if [ "$now" = "$last" ]; then still=$((still + 1)); else still=0; last=$now; fi
    sleep 1
done
vm_assert_eq "gesturectl lisgd has no child left (commands reaped)" "" "$(cat "/proc/$gctl_pid/task/$gctl_pid/children" 2>/dev/null | tr -d ' ')"
vm_assert "gesturectl lisgd is still running" test -d "/proc/$gctl_pid"
vm_assert "gesturectl lisgd (own extent) is still running" test -d "/proc/$ext_pid"
# Scripts that stop lisgd by name (Sxmo's lock scripts: pkill -9 lisgd) find it.
vm_assert_eq "gesturectl lisgd is named lisgd for pgrep and pkill" "lisgd" "$(cat "/proc/$gctl_pid/comm")"
kill -TERM "$gctl_pid" "$ext_pid"
wait "$gctl_pid"; rc=$?
wait "$ext_pid"
kill "$lisgd_pid" 2>/dev/null; _vm_wait_gone "$lisgd_pid" 10 || kill -KILL "$lisgd_pid"
vm_log "gesturectl lisgd stderr: $(head -c 600 "$VM_SCRATCH/gesturectl.err")"

# --- Compare, stroke by stroke: a fire belongs to the stroke whose window
# (its start to the next one's, on the recording's clock from t0) holds it.
table=$VM_RESULTS/table.txt
awk -v t0="$t0" -v logs="$logs" '
    function load(name, col,    line, f, t, k) {
        while ((getline line < (logs "/" name ".log")) > 0) {
            split(line, f, " "); t = f[1] - t0; k = 1
            while (k < n && start[k + 1] <= t) k++
            fired[col, k, f[2]]++
            if (!((col, k) in list)) list[col, k] = f[2]
            else if (index(" " list[col, k] " ", " " f[2] " ") == 0) list[col, k] = list[col, k] " " f[2]
        }
    }
    function show(col, k,    s, m, i, a) {
        if (!((col, k) in list) || list[col, k] == "") return "-"
        m = split(list[col, k], a, " "); s = ""
        for (i = 1; i <= m; i++) s = s (i > 1 ? "," : "") a[i] (fired[col, k, a[i]] > 1 ? "x" fired[col, k, a[i]] : "")
        return s
    }
    FNR == 1 { next }
    { n++; start[n] = $2; expect[n] = $4; pressed[n] = $5; what[n] = $6; for (i = 7; i <= NF; i++) what[n] = what[n] " " $i }
    END {
        load("lisgd", 1); load("gesturectl", 2); load("gesturectl-own-extent", 3)
        bad = 0; unexpected = 0
        printf "%-3s %-44s %-24s %-24s %-24s %-24s %s\n", "n", "stroke", "expected", "lisgd", "gesturectl lisgd", "(own extent)", "verdict"
        for (k = 1; k <= n; k++) {
            ok = (list[1, k] == list[2, k]) && (list[1, k] == list[3, k])
            if (ok && (1, k) in list) {
                m = split(list[1, k], a, " ")
                for (i = 1; i <= m; i++) {
                    d2 = fired[1, k, a[i]] - fired[2, k, a[i]]; d3 = fired[1, k, a[i]] - fired[3, k, a[i]]
                    tol = pressed[k] > 0 ? 2 : 0
                    if (d2 > tol || -d2 > tol || d3 > tol || -d3 > tol) ok = 0
                }
            }
            want = expect[k] (pressed[k] > 0 ? "x" pressed[k] : "")
            if (!ok) bad++
            if (show(1, k) != want && !(pressed[k] > 0 && list[1, k] == expect[k])) unexpected++
            printf "%-3d %-44s %-24s %-24s %-24s %-24s %s\n", k, substr(what[k], 1, 44), want, show(1, k), show(2, k), show(3, k), ok ? "same" : "DIFFERENT"
        }
        printf "strokes %d, different %d, lisgd not as labelled %d\n", n, bad, unexpected
    }' "$strokes.strokes.tsv" > "$table"
cat "$table" >&2
different=$(sed -n 's/^strokes [0-9]*, different \([0-9]*\),.*/\1/p' "$table")
unlabelled=$(sed -n 's/.*lisgd not as labelled \([0-9]*\)$/\1/p' "$table")
vm_assert_eq "strokes where lisgd and gesturectl lisgd fired differently" 0 "${different:-missing}"
[ "${unlabelled:-0}" -eq 0 ] || vm_note "$unlabelled strokes where lisgd did not fire what the generator labelled (see table.txt)"
vm_assert "lisgd fired something at all" test -s "$logs/lisgd.log"
vm_assert_eq "gesturectl lisgd exits 0 on SIGTERM" 0 "$rc"
vm_device_remove keyboard
vm_device_remove panel
# The guest's later scenarios (udev_uaccess) see the rules as shipped, not this copy.
rm -f /etc/udev/rules.d/70-gestured-touchscreen.rules
udevadm control --reload 2>/dev/null || true
vm_finish
