#!/bin/sh
# vm-mode: systemd
# vm-timeout: 420
# A script written from docs/PROTOCOL.md alone — the "Writing a client" example,
# taken from the document as it is — follows the daemon through a restart in the
# middle of a pan and through a phase where it stops reading until it is dropped,
# while `gesturectl subscribe --exec` runs a slow command per pan event. Both must
# learn how every gesture that began ended: the daemon's `cancelled` (daemon
# stopping) at the restart, the client's own (connection lost) when dropped.
. "$VM_REPO/Tests/vm/lib.sh"
. "$VM_REPO/Tests/vm/service_lib.sh"

svc_install
since=$(date '+%Y-%m-%d %H:%M:%S')
svc_user alice gestured
svc_start

desc=$VM_FIXTURES/Atmel-maXTouch-Touchscreen.desc
taps=$VM_FIXTURES/Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events
drag=$VM_FIXTURES/Atmel-maXTouch-Touchscreen.1-finger-drag-up-down.events
vm_device_create atmel "$desc" || vm_abort "cannot create the touchscreen"
vm_wait_until 20 sh -c "gesturectl status | grep -q '$(vm_node atmel)'" || vm_abort "daemon did not pick up $(vm_node atmel)"

d=$VM_SCRATCH/alice
mkdir -p "$d" && chown alice "$d"
sed -n '/^<!-- example: gestured_client.py -->$/,/^<!-- end of example -->$/p' "$VM_REPO/docs/PROTOCOL.md" \
    | sed '1,2d;$d' | sed '$d' > "$d/gestured_client.py"
python3 -c "import ast, sys; ast.parse(open(sys.argv[1]).read())" "$d/gestured_client.py" \
    || vm_abort "the example in PROTOCOL.md is not valid Python"
cat > "$d/follow.py" <<'PY'
# The example, with its handle() recording each event and stalling while a file exists.
import json, os, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gestured_client as client
out = open(sys.argv[1], "a", buffering=1)
stall = sys.argv[2]
client.SUBSCRIBE = {"cmd": "subscribe"}   # every changed too: a reader that stops must overflow
def handle(event):
    while os.path.exists(stall):
        time.sleep(0.2)
    out.write(json.dumps(event) + "\n")
client.handle = handle
client.main()
PY
stall=$d/stall
# In the background as alice, tracked by the reader's own pid (setpriv execs it),
# so the end of the scenario stops it and the next scenario starts without it.
alice_bg() { setpriv --reuid=alice --regid="$(id -g alice)" --init-groups -- "$@" & _vm_track $!; }
alice_bg python3 "$d/follow.py" "$d/events.jsonl" "$stall" 2> "$d/client.err"
alice_bg gesturectl subscribe --kind pan --max-children 1 \
    --exec "sleep 0.3; echo \"\$GESTURE_NAME \$GESTURE_STATE \$GESTURE_REASON\" >> $d/exec.out" 2> "$d/exec.err"
vm_wait_until 20 sh -c "gesturectl status | grep -q 'subscribers: 2'" || vm_abort "two subscribers expected: $(gesturectl status)"

# A: the daemon restarts while a pan is in flight: the drag is played without its
# lift, so the finger stays down however long the restart takes, then lifted.
n_lift=$(grep -n ' 0003 0039 -0*1' "$drag" | tail -n1 | cut -d: -f1)
head -n $((n_lift - 1)) "$drag" > "$VM_SCRATCH/drag-held.events"
grep '^#' "$drag" > "$VM_SCRATCH/lift.events"
tail -n +"$n_lift" "$drag" >> "$VM_SCRATCH/lift.events"
vm_device_play atmel "$VM_SCRATCH/drag-held.events"
vm_wait_until 20 grep -q '"state": "began"' "$d/events.jsonl" || vm_fail "no pan began"
systemctl restart gestured.service
vm_device_play atmel "$VM_SCRATCH/lift.events"
vm_wait_until 30 sh -c "gesturectl status | grep -q 'subscribers: 2'" || vm_fail "clients did not come back: $(gesturectl status)"
vm_replay "$desc" "$taps" "$VM_SCRATCH/expected-taps.jsonl"
mark=$(wc -l < "$d/events.jsonl")
vm_device_play atmel "$taps"
sleep 3
want=$(grep -c '"recognized"' "$VM_SCRATCH/expected-taps.jsonl")
got=$(tail -n +$((mark + 1)) "$d/events.jsonl" | grep -c '"recognized"')
vm_assert_eq "after the restart the script receives every tap" "$want" "$got"

# B: the script stops reading while pans go on, until the daemon drops it.
touch "$stall"
rounds=0
while [ $rounds -lt 15 ] && ! journalctl -u gestured.service --no-pager -o cat --since "$since" | grep -q "dropped: fell behind"; do
    vm_device_play atmel "$drag"; rounds=$((rounds + 1))
done
vm_note "dropped after $rounds drags"
rm -f "$stall"
vm_wait_until 60 sh -c "[ \$(grep -c reconnecting $d/client.err) -ge 2 ]" || vm_fail "the script did not reconnect after the drop: $(tail -3 "$d/client.err")"
vm_assert "the script read why it was dropped" grep -q "slow_consumer" "$d/client.err"
vm_wait_until 60 sh -c "! pgrep -u alice -x sleep >/dev/null" || vm_note "--exec commands still running"
sleep 2

python3 - "$d/events.jsonl" "$d/exec.out" > "$VM_SCRATCH/check.out" 2>&1 <<'PY'
import json, sys
def check(label, seq):
    """seq: (gesture, state, reason). Every began ends exactly once, nothing outside."""
    open_, ends, problems = set(), {}, []
    for g, state, reason in seq:
        if state == "began":
            if g in open_: problems.append(f"{g}: began twice")
            open_.add(g)
        elif state == "changed":
            if g not in open_: problems.append(f"{g}: changed while not begun")
        elif state in ("ended", "cancelled"):
            if g not in open_: problems.append(f"{g}: {state} while not begun")
            open_.discard(g)
            if state == "cancelled": ends[reason] = ends.get(reason, 0) + 1
    for g in open_: problems.append(f"{g}: never ended")
    print(label, "began", sum(1 for s in seq if s[1] == "began"), "cancelled", ends, "problems", len(problems))
    for p in problems[:10]: print(label, "problem:", p)
events = [json.loads(l) for l in open(sys.argv[1])]
check("script", [((e["name"], e["device"]), e["state"], e.get("reason", "")) for e in events])
lines = [l.split(" ", 2) for l in open(sys.argv[2]).read().splitlines()]
check("exec", [(p[0], p[1], p[2] if len(p) > 2 else "") for p in lines])
PY
vm_note "$(tr '\n' ';' < "$VM_SCRATCH/check.out")"
vm_assert "the script saw no gesture without its ending" grep -q "^script .*problems 0$" "$VM_SCRATCH/check.out"
vm_assert "the restart ended the pan: cancelled, daemon stopping" grep -q "^script .*'daemon stopping': 1" "$VM_SCRATCH/check.out"
vm_assert "the drop ended the pan: cancelled, connection lost" grep -q "^script .*'connection lost': 1" "$VM_SCRATCH/check.out"
vm_assert "--exec ran every pan's beginning and end" grep -q "^exec .*problems 0$" "$VM_SCRATCH/check.out"
vm_assert "--exec ran the restart's cancellation" grep -q "^exec .*'daemon stopping': 1" "$VM_SCRATCH/check.out"
began=$(grep -c " began" "$d/exec.out")
vm_assert_eq "--exec ran began for every pan played" $((rounds + 1)) "$began"
vm_assert "--exec said it skipped changed events" grep -q "changed event(s) skipped" "$d/exec.err"
vm_assert_eq "daemon still active" active "$(systemctl is-active gestured.service)"
vm_finish
