#!/bin/sh
# callgrind_lisgd: where gestured's `lisgd` spends its instructions on a real
# kernel, whole run: start, reading the touchscreen through libevdev, the
# pipeline, the bindings' commands, the loop and timer, until SIGTERM. A link
# named lisgd to gesture-run (BENCH_GESTURE_RUN, or GESTURED_BIN_DIR/gesture-run)
# runs under valgrind's callgrind with Sxmo's 46 bindings and options
# (Tests/vm/sxmo_lisgd.sh) while the 49 labelled phone strokes play twice: the
# first playback warms it up (under callgrind in a TCG guest, the first time a
# path runs stalls the reader long enough for the kernel to drop events), and
# the counts are dumped after it (callgrind.out.1: the start and the warm-up);
# the second is the one measured (callgrind.out: that playback, until SIGTERM).
# Results: callgrind.out, callgrind.out.1, fires.txt (the labels the commands
# logged in the measured playback, which must be those of the replay).
# scripts/lisgd-callgrind.sh --live runs it and prints the parts.
# vm-manual: yes
# vm-timeout: 1500
. "$VM_REPO/Tests/vm/lib.sh"
command -v valgrind >/dev/null || vm_skip "no valgrind"
gesture_run=${BENCH_GESTURE_RUN:-$GESTURED_BIN_DIR/gesture-run}
[ -x "$gesture_run" ] || vm_skip "no $gesture_run (set BENCH_GESTURE_RUN or GESTURED_BIN_DIR)"
vm_note "gestured's lisgd: $gesture_run"
strokes=$VM_REPO/Tests/fixtures/phone/strokes
vm_device_create panel "$strokes.desc" || vm_abort "cannot create the touchscreen"
node=$(vm_node panel)
mkdir -p "$VM_SCRATCH/bin"
# valgrind cannot read the toolchain's DWARF 5: the symbols are enough.
objcopy --strip-debug "$gesture_run" "$VM_SCRATCH/gesture-run"
ln -sf "$VM_SCRATCH/gesture-run" "$VM_SCRATCH/bin/lisgd"
. "$VM_REPO/Tests/vm/sxmo_lisgd.sh"
log=$VM_SCRATCH/fires.log
: > "$log"
sxmo_launcher "$VM_SCRATCH/run.sh" "$log" label "$VM_SCRATCH/bin/lisgd" -d "$node" $SXMO_LISGD_OPTIONS
sed -i "s|^exec |exec valgrind --tool=callgrind --callgrind-out-file=$VM_RESULTS/callgrind.out |" "$VM_SCRATCH/run.sh"
sh "$VM_SCRATCH/run.sh" > "$VM_SCRATCH/out.txt" 2> "$VM_SCRATCH/err.txt" &
p=$!; _vm_track $p
vm_wait_until 600 vm_pid_holds "$p" "$node" || vm_abort "never opened $node: $(tail -c 400 "$VM_SCRATCH/err.txt")"
sleep 5
# Until no command has logged for 10 s (callgrind is slow).
wait_logged() {
    last=-1 still=0
    while [ "$still" -lt 10 ]; do
        now=$(wc -c < "$log")
        if [ "$now" = "$last" ]; then still=$((still + 1)); else still=0; last=$now; fi
        sleep 1
    done
}
vm_device_play panel "$strokes.events"
wait_logged
vm_note "fires in the warm-up: $(wc -l < "$log")"
callgrind_control -d warm-up "$p" > /dev/null || vm_fail "callgrind_control -d failed"
dumped() { ls "$VM_RESULTS"/callgrind.out* > /dev/null 2>&1; }
vm_wait_until 120 dumped || vm_fail "no dump after the warm-up"
: > "$log"
vm_device_play panel "$strokes.events"
wait_logged
kill -TERM "$p"
_vm_wait_gone "$p" 300 || vm_fail "callgrind did not end within 300 s of SIGTERM"
cp "$log" "$VM_RESULTS/fires.txt"
cp "$VM_SCRATCH/err.txt" "$VM_RESULTS/valgrind.txt"
vm_note "dumps: $(cd "$VM_RESULTS" && echo callgrind.out*)"
vm_note "fires: $(wc -l < "$log")"
vm_device_remove panel
vm_finish
