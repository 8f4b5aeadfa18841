#!/bin/sh
# vm-mode: systemd
# vm-timeout: 300
# Request load on the real socket, under systemd's watchdog: 124 subscribers with
# the largest filters allowed and one client sending 70 status requests in one write
# leave the daemon answering others and never restarted; a 60 KB filter is refused;
# one user cannot take more than 32 client slots while another still gets in; out of
# file descriptors, the daemon neither spins nor floods the journal, and serves
# clients again once descriptors are free.
. "$VM_REPO/Tests/vm/lib.sh"
. "$VM_REPO/Tests/vm/service_lib.sh"

svc_install
for u in alice carol dave erin; do svc_user "$u" gestured; done
svc_start
sock=/run/gestured/events.sock
pid=$(systemctl show -p MainPID --value gestured.service)
restarts() { systemctl show -p NRestarts --value gestured.service; }
r0=$(restarts)

cat > "$VM_SCRATCH/load.py" <<'PY'
import json, os, socket, sys, time
SOCK = "/run/gestured/events.sock"
def conn():
    # A daemon that stops answering fails the scenario with a message, not a hang.
    s = socket.socket(socket.AF_UNIX); s.settimeout(90); s.connect(SOCK); f = s.makefile("rb")
    return s, f, json.loads(f.readline())
mode = sys.argv[1]
if mode == "subscribers":        # hold N subscriptions with 32 names of ~30 bytes
    n, done = int(sys.argv[2]), sys.argv[3]
    names = ["recognizer_number_%02d_of_a_long_list" % i for i in range(32)]
    held = []
    for i in range(n):
        s, f, hello = conn()
        s.sendall(json.dumps({"cmd": "subscribe", "name": names[:23]}).encode() + b"\n")
        r = json.loads(f.readline())
        if r.get("type") != "subscribed": print("refused:", r, flush=True); sys.exit(1)
        held.append(s)
    print("holding", len(held), flush=True)
    while not os.path.exists(done): time.sleep(0.5)
elif mode == "flood":            # 70 status requests in one write; a 60 KB filter
    s, f, hello = conn()
    t0 = time.monotonic()
    s.sendall(b"".join(b'{"cmd":"status","id":%d}\n' % i for i in range(70)))
    ids = [json.loads(f.readline()).get("id") for _ in range(70)]
    print("status_replies_in_order", ids == list(range(70)))
    print("status_flood_s %.1f" % (time.monotonic() - t0))
    s.sendall(json.dumps({"cmd": "subscribe", "name": ["x" * 60000]}).encode() + b"\n")
    print("big_filter", json.loads(f.readline()).get("code"))
elif mode == "ping":             # how long one ping takes while the flood runs
    s, f, hello = conn(); t0 = time.monotonic()
    s.sendall(b'{"cmd":"ping"}\n'); r = json.loads(f.readline())
    print("ping_s %.1f %s" % (time.monotonic() - t0, r.get("type")))
elif mode == "slots":            # open N connections; count hellos and refusals
    got = {}
    held = []
    for i in range(int(sys.argv[2])):
        try:
            s, f, first = conn(); held.append(s)
            k = first.get("type") if first.get("type") == "hello" else first.get("code")
        except OSError as e:
            k = "oserror"
        got[k] = got.get(k, 0) + 1
    print(" ".join("%s=%d" % kv for kv in sorted(got.items())), flush=True)
    if len(sys.argv) > 3:
        while not os.path.exists(sys.argv[3]): time.sleep(0.2)
PY

# 3. 4 users x 31 subscribers with 23-name filters (about 1 KB each), then a status flood.
done=$VM_SCRATCH/done-subscribers
for u in alice carol dave erin; do
    svc_as "$u" python3 "$VM_SCRATCH/load.py" subscribers 31 "$done" > "$VM_SCRATCH/sub-$u.out" 2>&1 &
    _vm_track $!
done
vm_wait_until 120 sh -c "cat $VM_SCRATCH/sub-*.out | grep -c holding | grep -qx 4" \
    || vm_fail "subscribers not all in: $(cat "$VM_SCRATCH"/sub-*.out)"
svc_as alice python3 "$VM_SCRATCH/load.py" flood > "$VM_SCRATCH/flood.out" 2>&1 &
flood=$!
_vm_track $flood
sleep 1
svc_as erin python3 "$VM_SCRATCH/load.py" ping > "$VM_SCRATCH/ping.out" 2>&1 || true
wait $flood
vm_note "flood: $(tr '\n' ' ' < "$VM_SCRATCH/flood.out"); during it: $(cat "$VM_SCRATCH/ping.out")"
vm_assert "70 status replies, in request order" grep -q "status_replies_in_order True" "$VM_SCRATCH/flood.out"
vm_assert "a 60 KB filter is refused" grep -q "big_filter bad_argument" "$VM_SCRATCH/flood.out"
vm_assert "another client is answered during the flood" grep -q "pong" "$VM_SCRATCH/ping.out" \
    || { vm_note "flood client: $(tail -3 "$VM_SCRATCH/flood.out" | tr '\n' ' ')"; svc_journal | tail -20 >&2; }
touch "$done"
vm_assert_eq "no restart (watchdog) during the flood" "$r0" "$(restarts)"
vm_assert_eq "same daemon process" "$pid" "$(systemctl show -p MainPID --value gestured.service)"
vm_wait_until 30 sh -c "gesturectl status | grep -q 'clients: 1,'" || vm_note "status after: $(gesturectl status | grep clients)"

# 8. alice asks for 40 slots and gets 32; carol still gets in.
adone=$VM_SCRATCH/done-alice
svc_as alice python3 "$VM_SCRATCH/load.py" slots 40 "$adone" > "$VM_SCRATCH/slots-alice.out" 2>&1 &
_vm_track $!
vm_wait_until 60 sh -c "test -s $VM_SCRATCH/slots-alice.out"
svc_as carol python3 "$VM_SCRATCH/load.py" slots 1 > "$VM_SCRATCH/slots-carol.out" 2>&1
vm_note "alice: $(cat "$VM_SCRATCH/slots-alice.out"); carol: $(cat "$VM_SCRATCH/slots-carol.out")"
vm_assert "alice: 32 hellos and 8 refusals" grep -qx "hello=32 too_many_clients=8" "$VM_SCRATCH/slots-alice.out"
vm_assert "carol still gets in" grep -qx "hello=1" "$VM_SCRATCH/slots-carol.out"
touch "$adone"
sleep 2

# 4. Out of file descriptors: 12 above what the daemon holds now.
nfd=$(vm_fd_count "$pid")
prlimit --pid "$pid" --nofile=$((nfd + 12)):$((nfd + 12)) || vm_abort "prlimit failed"
cpu() { read -r _a _b _c _d _e _f _g _h _i _j _k _l _m ut st _rest < "/proc/$pid/stat"; echo $((ut + st)); }
journal_before=$(svc_journal | grep -c "accept:")  # counted from here on
c0=$(cpu)
cdone=$VM_SCRATCH/done-carol
svc_as carol python3 "$VM_SCRATCH/load.py" slots 20 "$cdone" > "$VM_SCRATCH/slots-emfile.out" 2>&1 &
_vm_track $!
sleep 4
c1=$(cpu)
accepts=$(( $(svc_journal | grep -c "accept:") - journal_before ))
vm_note "out of descriptors: $((c1 - c0)) ticks of CPU in ~4 s, $accepts accept log lines; carol: $(cat "$VM_SCRATCH/slots-emfile.out")"
vm_assert "the daemon does not spin (< 100 ticks in 4 s)" test $((c1 - c0)) -lt 100
vm_assert "accept failures logged at most once per 10 s" test "$accepts" -le 1
touch "$cdone"
vm_wait_until 30 sh -c "test -s $VM_SCRATCH/slots-emfile.out" || vm_fail "carol's 20 connections never got an answer"
vm_assert "some of carol's connections were told too_many_clients" grep -q "too_many_clients=" "$VM_SCRATCH/slots-emfile.out"
prlimit --pid "$pid" --nofile=1024:1024
vm_assert "served again once descriptors are free" vm_wait_until 30 sh -c "gesturectl status | grep -q '^clients:'"
vm_assert_eq "no restart" "$r0" "$(restarts)"
vm_assert_eq "daemon still active" active "$(systemctl is-active gestured.service)"
vm_finish
