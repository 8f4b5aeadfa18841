#!/bin/sh
# vm-mode: systemd
# Subscribers on the real socket: a user in group gestured receives exactly the
# gestures `gesturectl replay` finds in a played recording; a user outside the
# group is refused by the socket's permissions; a subscriber that stops reading is
# dropped with a final error while another one receives every event.
. "$VM_REPO/Tests/vm/lib.sh"
. "$VM_REPO/Tests/vm/service_lib.sh"

svc_install
# Scenarios share one boot and its journal: only this scenario's lines count.
since=$(date '+%Y-%m-%d %H:%M:%S')
journal_here() { journalctl -u gestured.service --no-pager -o cat --since "$since"; }
svc_user alice gestured
svc_user bob
svc_start

desc=$VM_FIXTURES/Atmel-maXTouch-Touchscreen.desc
taps=$VM_FIXTURES/Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events
drag=$VM_FIXTURES/Atmel-maXTouch-Touchscreen.1-finger-drag-up-down.events
vm_device_create atmel "$desc" || vm_abort "cannot create the touchscreen"
vm_wait_until 20 sh -c "gesturectl status | grep -q '$(vm_node atmel)'" || vm_abort "daemon did not pick up $(vm_node atmel)"

# bob is not in the group: connect(2) fails with EACCES and gesturectl says why.
svc_as bob gesturectl status > "$VM_SCRATCH/bob.out" 2>&1
vm_assert_eq "bob's gesturectl status exit" 1 "$?"
vm_assert "bob is told about the group" grep -q "permission denied" "$VM_SCRATCH/bob.out"

# alice subscribes; a second subscriber connects and never reads.
svc_as alice gesturectl subscribe > "$VM_SCRATCH/alice.jsonl" 2> "$VM_SCRATCH/alice.err" &
_vm_track $!
python3 - "$VM_SCRATCH/stalled.out" <<'PY' &
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.connect("/run/gestured/events.sock")
s.sendall(b'{"cmd":"subscribe","failures":true}\n')
time.sleep(150)   # never reads until the end
data = b""
s.settimeout(2)
try:
    while True:
        chunk = s.recv(65536)
        if not chunk: break
        data += chunk
except Exception: pass
open(sys.argv[1], "wb").write(data)
PY
_vm_track $!
vm_wait_until 10 sh -c "gesturectl status | grep -q 'subscribers: 2'" || vm_fail "two subscribers expected: $(gesturectl status)"

# alice's events so far (a line still being written is not counted).
alice_events() { jq -c 'select(.type == "event")' < "$VM_SCRATCH/alice.jsonl" 2>/dev/null | wc -l; }
alice_has() { [ "$(alice_events)" -ge "$1" ]; }

vm_replay "$desc" "$taps" "$VM_SCRATCH/expected-taps.jsonl"
vm_device_play atmel "$taps"
vm_wait_until 60 alice_has "$(wc -l < "$VM_SCRATCH/expected-taps.jsonl")" \
    || vm_note "alice has $(alice_events) events of the taps after 60 s"
vm_project < "$VM_SCRATCH/expected-taps.jsonl" > "$VM_SCRATCH/expected.txt"
jq -c 'select(.type == "event")' < "$VM_SCRATCH/alice.jsonl" | vm_project > "$VM_SCRATCH/alice.txt"
vm_compare "alice's events for the taps recording" "$VM_SCRATCH/expected.txt" "$VM_SCRATCH/alice.txt"

# Flood: the drag recording many times over makes pan events by the thousand.
vm_replay "$desc" "$drag" "$VM_SCRATCH/expected-drag.jsonl"
before=$(alice_events)
rounds=0
dropped() { journal_here | grep -q "dropped: fell behind"; }
while [ $rounds -lt 15 ] && ! dropped; do
    vm_device_play atmel "$drag"; rounds=$((rounds + 1))
done
want=$(($(wc -l < "$VM_SCRATCH/expected-drag.jsonl") * rounds))
vm_assert "the stalled subscriber was dropped" vm_wait_until 60 dropped
vm_wait_until 60 alice_has $((before + want)) || :
got=$(($(alice_events) - before))
vm_note "after $rounds drag recordings: alice got $got events, replay predicts $want"
vm_assert_eq "alice received every event" "$want" "$got"
vm_assert_eq "daemon still active" active "$(systemctl is-active gestured.service)"
vm_finish
