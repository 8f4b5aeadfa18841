#!/bin/sh
# vm-mode: systemd
# vm-timeout: 420
# Control rights under real systemd-logind: carol and dave are both in group
# gestured, neither in gestured-control. Until carol has a session, neither may
# rotate. Then carol gets a logind session on tty1 (PAM "login", as a getty's
# login would open it), which is the active session on seat0: now carol may
# rotate and pause, and dave still may not — he subscribes and sees the swipe,
# his rotate is refused with not_permitted and the journal names his uid. When
# carol's session ends, she is refused again (the seat is asked at each request).
. "$VM_REPO/Tests/vm/lib.sh"
. "$VM_REPO/Tests/vm/service_lib.sh"

svc_install
svc_user carol gestured
svc_user dave gestured
svc_start
carol=$(id -u carol)
dave=$(id -u dave)
vm_assert "group gestured-control exists (sysusers)" getent group gestured-control
vm_assert_not "carol is not in gestured-control" sh -c 'id -nG carol | grep -qw gestured-control'

desc=$VM_DEVICES/portrait-panel.desc
swipe=$VM_DEVICES/portrait-panel.swipe.events
vm_device_create phone "$desc" || vm_abort "cannot create the portrait panel"
node=$(vm_node phone)
vm_wait_until 20 sh -c "gesturectl status | grep -q '$node'" || vm_abort "the daemon did not pick up $node: $(gesturectl status)"
rotation() { gesturectl status --json | jq '.devices[0].rotation'; }

# refused USER COMMAND… — the command fails with not_permitted and says what to do.
refused() {
    _who=$1; shift
    _out=$(svc_as "$_who" gesturectl "$@" 2>&1); _rc=$?
    vm_assert_eq "$_who: gesturectl $*: exit status" 1 "$_rc"
    vm_assert "$_who: gesturectl $*: not_permitted, with who may" sh -c \
        'echo "$1" | grep -q "may not $2: changing the daemon is for root.*the user of the active session on seat0 and members of group .gestured-control.* (not_permitted)"' sh "$_out" "$1"
    vm_assert "$_who: gesturectl $*: says what to do" sh -c 'echo "$1" | grep -q "usermod -aG GROUP USER"' sh "$_out"
}

# No session on the seat: group gestured lets carol subscribe, not rotate.
refused carol rotate 90
vm_assert_eq "nothing rotated yet" 0 "$(rotation)"

# A session for carol on tty1, opened by PAM's "login" stack as a getty's login
# would: pam_systemd registers it with logind, on seat0 (tty1 is a VT), and it is
# the active one (VT 1 is in the foreground).
systemctl start dbus.socket systemd-logind.service || vm_fail "systemd-logind did not start"
cat > /etc/systemd/system/vm-carol-session.service <<'UNIT'
[Unit]
Description=carol at the console (tty1)
After=systemd-logind.service

[Service]
User=carol
PAMName=login
TTYPath=/dev/tty1
StandardInput=tty-force
StandardOutput=tty
ExecStart=/bin/sleep infinity
UNIT
systemctl daemon-reload
systemctl start vm-carol-session.service || vm_fail "carol's session unit did not start"
active_uid() { loginctl show-seat seat0 -p ActiveSession --value | xargs -r loginctl show-session -p User --value; }
if vm_wait_until 20 sh -c "[ \"\$(loginctl show-seat seat0 -p ActiveSession --value | xargs -r loginctl show-session -p User --value)\" = $carol ]"; then
    vm_note "seat0: $(loginctl show-seat seat0 --no-pager 2>&1 | tr '\n' ' ')"
    vm_note "sessions: $(loginctl list-sessions --no-legend --no-pager 2>&1 | tr '\n' ';')"
else
    loginctl list-sessions --no-pager > "$VM_SCRATCH/sessions.txt" 2>&1
    loginctl show-seat seat0 --no-pager >> "$VM_SCRATCH/sessions.txt" 2>&1
    journalctl -b --no-pager -u systemd-logind -u vm-carol-session > "$VM_SCRATCH/logind.journal" 2>&1
    vm_abort "carol's session is not the active one on seat0 (active uid: '$(active_uid)'): see scratch/sessions.txt"
fi

# dave subscribes and sees a swipe: reading stays with the group.
d=$VM_SCRATCH/dave
mkdir -p "$d" && chown dave "$d"
setpriv --reuid=dave --regid="$(id -g dave)" --init-groups -- gesturectl subscribe --kind swipe > "$d/swipes.jsonl" 2> "$d/subscribe.err" &
_vm_track $!
# (Slow under TCG on a loaded machine: gesturectl's first start as a new user.)
if vm_wait_until 60 sh -c "gesturectl status | grep -q 'subscribers: 1'"; then
    vm_device_play phone "$swipe"
    vm_wait_until 20 grep -q '"state":"recognized"' "$d/swipes.jsonl" || vm_fail "dave's subscription saw no swipe"
else
    vm_fail "dave did not subscribe: $(cat "$d/subscribe.err"); status: $(gesturectl status 2>&1 | tr '\n' ' ')"
fi

# carol, at the seat, may.
out=$(svc_as carol gesturectl rotate 90 2>&1); rc=$?
vm_assert_eq "carol (active on seat0): rotate 90: exit status" 0 "$rc"
vm_assert_eq "carol's rotation took" 90 "$(rotation)"
vm_assert "the journal says carol rotated as the seat's active user" sh -c \
    "journalctl -u gestured.service --no-pager -o cat | grep -q 'uid $carol, active session on seat0): rotation 90°'"
out=$(svc_as carol gesturectl pause 2>&1); rc=$?
vm_assert_eq "carol: pause: exit status" 0 "$rc"
vm_assert_eq "paused" true "$(gesturectl status --json | jq '.paused')"
svc_as carol gesturectl resume > /dev/null 2>&1 || vm_fail "carol: resume failed"

# dave, in group gestured but not at the seat, may not; the journal names his uid.
refused dave rotate 0
refused dave pause
vm_assert_eq "dave changed nothing" "90 false" "$(gesturectl status --json | jq -r '"\(.devices[0].rotation) \(.paused)"')"
vm_assert "the journal names dave's uid on the refusal" sh -c \
    "journalctl -u gestured.service --no-pager -o cat | grep -q 'uid $dave): rotate refused: not permitted'"
vm_assert "dave may still ask for status" sh -c 'setpriv --reuid=dave --regid="$(id -g dave)" --init-groups -- gesturectl status > /dev/null'

# Root may, whoever is at the seat.
gesturectl rotate 180 > /dev/null 2>&1 || vm_fail "root: rotate 180 failed"
vm_assert_eq "root's rotation took" 180 "$(rotation)"

# carol's session ends: the seat has no active user, and carol is refused again.
systemctl stop vm-carol-session.service
vm_wait_until 20 sh -c "[ -z \"\$(loginctl show-seat seat0 -p ActiveSession --value)\" ]" || vm_fail "carol's session did not end: $(loginctl list-sessions --no-legend)"
refused carol rotate 0
vm_assert_eq "still 180" 180 "$(rotation)"
vm_finish
