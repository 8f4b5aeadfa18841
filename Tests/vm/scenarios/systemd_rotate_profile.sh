#!/bin/sh
# vm-mode: systemd
# vm-timeout: 300
# Live rotation, profiles and pause through the real socket, asked for by a member
# of groups gestured and gestured-control who is not root: the same played swipe (one finger 40 mm
# towards the panel's own bottom) is a swipe down, then `gesturectl rotate right`
# turns it into a swipe right at the place the user sees (PROTOCOL.md's worked
# swipe), through a reload too, and `rotate 90` into a swipe left; `pause`
# silences it, `resume` brings it back;
# `profile locked` lets only the recognizer tagged "locked" fire; a restart
# forgets the rotation. Someone outside group gestured cannot connect; a member of
# gestured alone (not at the seat, no session in this boot) subscribes but is
# refused control with not_permitted, and the journal names the uid.
. "$VM_REPO/Tests/vm/lib.sh"
. "$VM_REPO/Tests/vm/service_lib.sh"

svc_install
cat >> /etc/gestured/gestured.toml <<'EOF'

# Only while the screen is locked.
[recognizer.locked_swipe]
kind = "swipe"
profiles = ["locked"]
EOF
svc_user alice gestured
usermod -aG gestured-control alice
svc_user erin gestured
svc_user mallory
svc_start

desc=$VM_DEVICES/portrait-panel.desc
swipe=$VM_DEVICES/portrait-panel.swipe.events
vm_device_create phone "$desc" || vm_abort "cannot create the portrait panel"
node=$(vm_node phone)
vm_wait_until 20 sh -c "gesturectl status | grep -q '$node'" || vm_abort "the daemon did not pick up $node: $(gesturectl status)"

d=$VM_SCRATCH/alice
mkdir -p "$d" && chown alice "$d"
as_alice() { svc_as alice "$@"; }
# Swipes as alice's subscription sees them, one JSON line each.
as_alice_bg() { setpriv --reuid=alice --regid="$(id -g alice)" --init-groups -- "$@" & _vm_track $!; }
as_alice_bg gesturectl subscribe --kind swipe > "$d/swipes.jsonl" 2> "$d/subscribe.err"
vm_wait_until 20 sh -c "gesturectl status | grep -q 'subscribers: 1'" || vm_abort "no subscriber: $(gesturectl status)"

# play [nothing] — plays the swipe and waits until alice's subscription has a
# swipe recognized (at most 30 s; with `nothing`, for 1.5 s in which none may
# come); prints the swipes recognized meanwhile as "NAME DIRECTION X,Y" (location_mm).
play() {
    _mark=$(wc -l < "$d/swipes.jsonl")
    vm_device_play phone "$swipe"
    if [ "${1:-}" = nothing ]; then
        sleep 1.5
    else
        vm_wait_until 30 sh -c "tail -n +$((_mark + 1)) '$d/swipes.jsonl' | grep -q '\"state\":\"recognized\"'" || true
    fi
    tail -n +$((_mark + 1)) "$d/swipes.jsonl" | grep '"state":"recognized"' \
        | sed 's/.*"name":"\([^"]*\)".*"location_mm":\[\([^]]*\)\].*"direction":"\([^"]*\)".*/\1 \3 \2/'
}
status_json() { gesturectl status --json; }

vm_assert_eq "unrotated: a swipe down where the finger landed on the panel" "swipe down 51.00,34.00" "$(play)"

# Rotate as alice, with xrandr's name, as Sxmo's rotate hook would pass it.
out=$(as_alice gesturectl rotate right 2>&1); rc=$?
vm_assert_eq "gesturectl rotate right as alice: exit status" 0 "$rc"
vm_assert_eq "gesturectl rotate right as alice: what it says" \
    "rotation 270° for every touchscreen ('gestured test portrait panel'), from the next touch on" "$out"
vm_assert_eq "status: the panel's rotation" 270 "$(status_json | jq '.devices[0].rotation')"
vm_assert_eq "rotated 270: the same finger is a swipe right, located as the user sees it" "swipe right 34.00,17.00" "$(play)"
vm_assert "the journal says who rotated" sh -c "journalctl -u gestured.service --no-pager -o cat | grep -q 'uid $(id -u alice), group .gestured-control.): rotation 270° for every touchscreen'"

systemctl reload gestured.service
vm_wait_until 10 sh -c "journalctl -u gestured.service --no-pager -o cat | grep -q 'SIGHUP: loaded'" || vm_fail "no reload in the journal"
vm_assert_eq "after a reload: still rotated" 270 "$(status_json | jq '.devices[0].rotation')"
vm_assert_eq "after a reload: still a swipe right" "swipe right 34.00,17.00" "$(play)"

out=$(as_alice gesturectl rotate 90 --device 'no such panel' 2>&1); rc=$?
vm_assert_eq "rotate --device with an unknown name: exit status" 1 "$rc"
vm_assert "rotate --device with an unknown name: says which are in use" sh -c "echo \"\$1\" | grep -q \"no touchscreen named 'no such panel' is in use; touchscreens in use: 'gestured test portrait panel' (unknown_device)\"" sh "$out"

out=$(as_alice gesturectl pause 2>&1); rc=$?
vm_assert_eq "gesturectl pause: exit status" 0 "$rc"
vm_assert_eq "status: paused" true "$(status_json | jq '.paused')"
vm_assert_eq "paused: nothing is recognized" "" "$(play nothing)"
as_alice gesturectl resume > /dev/null 2>&1 || vm_fail "gesturectl resume failed"
vm_assert_eq "status: not paused" false "$(status_json | jq '.paused')"
vm_assert_eq "resumed: a swipe right again" "swipe right 34.00,17.00" "$(play)"

out=$(as_alice gesturectl profile locked 2>&1); rc=$?
vm_assert_eq "gesturectl profile locked: exit status" 0 "$rc"
vm_assert_eq "gesturectl profile locked: what it says" "profile locked: locked_swipe" "$out"
vm_assert_eq "status: the active profile" '"locked"' "$(status_json | jq '.profile')"
vm_assert_eq "profile locked: only the recognizer tagged locked fires" "locked_swipe right 34.00,17.00" "$(play)"
as_alice gesturectl profile default > /dev/null 2>&1 || vm_fail "gesturectl profile default failed"

# Someone outside group gestured cannot connect, so cannot rotate.
out=$(svc_as mallory gesturectl rotate 0 2>&1); rc=$?
vm_assert_eq "rotate as a user outside group gestured: exit status" 1 "$rc"
vm_assert "rotate as a user outside group gestured: permission denied" sh -c "echo \"\$1\" | grep -q 'permission denied'" sh "$out"
vm_assert_eq "mallory changed nothing" 270 "$(status_json | jq '.devices[0].rotation')"

# erin is in group gestured only: he may read, not change the daemon.
out=$(svc_as erin gesturectl rotate 0 2>&1); rc=$?
vm_assert_eq "rotate as a member of gestured only: exit status" 1 "$rc"
vm_assert "rotate as a member of gestured only: not_permitted, with who may" sh -c "echo \"\$1\" | grep -q 'uid $(id -u erin) may not rotate: changing the daemon is for root.*members of group .gestured-control.* (not_permitted)'" sh "$out"
vm_assert "the journal names erin's uid on the refusal" sh -c "journalctl -u gestured.service --no-pager -o cat | grep -q 'uid $(id -u erin)): rotate refused: not permitted'"
out=$(svc_as erin gesturectl pause 2>&1); rc=$?
vm_assert_eq "pause as a member of gestured only: exit status" 1 "$rc"
vm_assert_eq "erin changed nothing" "270 false" "$(status_json | jq -r '"\(.devices[0].rotation) \(.paused)"')"
vm_assert "erin may still ask for status" sh -c 'setpriv --reuid=erin --regid="$(id -g erin)" --init-groups -- gesturectl status > /dev/null'

# In degrees: turned 90° clockwise (xrandr left), the panel's own down is the user's left.
as_alice gesturectl rotate 90 > /dev/null 2>&1 || vm_fail "gesturectl rotate 90 failed"
vm_assert_eq "rotated 90: a swipe left" "swipe left 102.00,51.00" "$(play)"

# A restart forgets the rotation (the config says 0).
systemctl restart gestured.service
vm_wait_until 30 sh -c "gesturectl status | grep -q '$node'" || vm_fail "the daemon did not come back: $(gesturectl status 2>&1)"
vm_wait_until 30 sh -c "gesturectl status | grep -q 'subscribers: 1'" || vm_fail "the subscription did not come back"
vm_assert_eq "after a restart: rotation 0 again" 0 "$(status_json | jq '.devices[0].rotation')"
vm_assert_eq "after a restart: profile default, not paused" '"default" false' "$(status_json | jq -r '"\"\(.profile)\" \(.paused)"')"
vm_assert_eq "after a restart: a swipe down again" "swipe down 51.00,34.00" "$(play)"
vm_finish
