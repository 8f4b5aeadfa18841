#!/bin/sh
# A hostile device name: a uinput touchscreen named with a newline (to forge a
# journal line), an escape sequence (to drive the reader's terminal) and a byte
# that is not UTF-8. The daemon's open, warning and removal lines and
# `gesturectl devices --all` must show the name escaped (\n, \u{1b}, U+FFFD),
# with no raw ESC and no line of their own starting with the forged text.
. "$VM_REPO/Tests/vm/lib.sh"
vm_need_binaries

name='b"Evil\ngestured: forged line\x1b[31mRed\xff"'
shown='Evil\ngestured: forged line\u{1b}[31mRed�'
esc=$(printf '\033')

vm_daemon_start || vm_abort "gestured did not come up"
python3 "$VM_REPO/Tests/vm/tools/uinput_named.py" "$name" > "$VM_SCRATCH/device.node" 2> "$VM_SCRATCH/device.err" &
dev_pid=$!
_vm_track "$dev_pid"
vm_wait_until 20 test -s "$VM_SCRATCH/device.node" || vm_abort "the uinput device did not appear: $(cat "$VM_SCRATCH/device.err")"
node=/dev/input/$(cat "$VM_SCRATCH/device.node")
vm_log "hostile device at $node"
vm_udev_settle
vm_wait_until 20 vm_daemon_holds "$node" || vm_fail "gestured did not open $node"
vm_wait_until 20 grep -qF "using $node '$shown'" "$VM_SCRATCH/daemon.err" \
    || vm_fail "no open line with the escaped name: $(tail -c 600 "$VM_SCRATCH/daemon.err")"

"$VM_GESTURECTL" devices --all > "$VM_SCRATCH/devices.out" 2> "$VM_SCRATCH/devices.err"
vm_assert_eq "gesturectl devices --all exit status" 0 "$?"
vm_assert "gesturectl devices --all shows the name escaped" grep -qF "$shown" "$VM_SCRATCH/devices.out"
vm_assert_not "gesturectl devices --all prints no ESC" grep -q "$esc" "$VM_SCRATCH/devices.out"
vm_assert_not "gesturectl devices --all has no forged row" grep -q "^gestured: forged" "$VM_SCRATCH/devices.out"

# As JSON: one object per node, every key there, the name as the kernel gave it
# (the byte that is not UTF-8 replaced), null where nothing is known.
"$VM_GESTURECTL" devices --json > "$VM_SCRATCH/devices.json" 2>> "$VM_SCRATCH/devices.err"
vm_assert_eq "gesturectl devices --json exit status" 0 "$?"
vm_assert_eq "devices --json: the touchscreen, in use, nothing skipped" "true null null" \
    "$(jq -r --arg n "$node" '.[] | select(.node == $n) | "\(.in_use) \(.skipped) \(.reason)"' "$VM_SCRATCH/devices.json")"
vm_assert_eq "devices --json: the name as given" "$(printf 'Evil\ngestured: forged line\033[31mRed\357\277\275')" \
    "$(jq -r --arg n "$node" '.[] | select(.node == $n) | .name' "$VM_SCRATCH/devices.json")"
vm_assert_eq "devices --json: every key" 15 \
    "$(jq --arg n "$node" '.[] | select(.node == $n) | keys | length' "$VM_SCRATCH/devices.json")"

kill -TERM "$dev_pid"
vm_wait_until 20 grep -qF "removed $node '$shown'" "$VM_SCRATCH/daemon.err" \
    || vm_fail "no removal line with the escaped name: $(tail -c 600 "$VM_SCRATCH/daemon.err")"
vm_assert "gestured still running" vm_daemon_alive
vm_daemon_stop
sleep 1
vm_log "daemon log: $(cat "$VM_SCRATCH/daemon.err")"
vm_assert_not "the daemon's log holds no ESC" grep -q "$esc" "$VM_SCRATCH/daemon.err"
vm_assert_not "the daemon's log has no forged line" grep -q "^gestured: forged" "$VM_SCRATCH/daemon.err"
vm_assert "every daemon log line starts with its program name" \
    sh -c "! grep -v '^gestured: ' '$VM_SCRATCH/daemon.err'"
vm_finish
