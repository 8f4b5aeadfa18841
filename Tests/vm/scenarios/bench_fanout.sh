#!/bin/sh
# Fan-out cost (manual, see BENCHMARKS.md): what a publisher pays per round to hand
# one line to 10 SCHED_BATCH subscribers: 10 sendmsg (gestured's way), the same in
# one io_uring_enter, or one futex wake of all ten (only the wake-ups). Each mode
# runs twice, interleaved, 2,000 rounds 5 ms apart. Results: $VM_RESULTS/fanout.txt.
# vm-manual: yes
# vm-timeout: 900
. "$VM_REPO/Tests/vm/lib.sh"
command -v cc >/dev/null || vm_skip "no C compiler"
bin=$VM_SCRATCH/fanout
cc -O2 -o "$bin" "$VM_REPO/Tests/vm/tools/fanout.c" -luring 2>/dev/null \
    || cc -O2 -o "$bin" "$VM_REPO/Tests/vm/tools/fanout.c" || vm_abort "cannot build fanout.c"
for m in sendmsg uring futex sendmsg uring futex; do
    "$bin" "$m" 10 "${BENCH_ROUNDS_FANOUT:-2000}" 5000 >> "$VM_RESULTS/fanout.txt" 2>&1 || vm_fail "fanout $m failed"
done
vm_log "$(cat "$VM_RESULTS/fanout.txt")"
vm_finish
