#!/bin/sh
# bench_lisgd: what gestured's `lisgd` costs a Sxmo user beside Debian's lisgd, in
# a guest that runs this machine's root (Tests/vm/bench_lisgd_measure.sh measures):
#   lisgd     Debian's /usr/bin/lisgd
#   gestured  a link named `lisgd` to gesture-run (as the gestured-lisgd package's
#             /usr/bin/lisgd): BENCH_GESTURE_RUN, or GESTURED_BIN_DIR/gesture-run
# bench_lisgd_trixie measures the packages themselves in a trixie guest.
# vm-manual: yes
# vm-timeout: 1500
. "$VM_REPO/Tests/vm/lib.sh"
command -v lisgd >/dev/null || vm_skip "no lisgd (Debian package lisgd)"
gesture_run=${BENCH_GESTURE_RUN:-$GESTURED_BIN_DIR/gesture-run}
[ -x "$gesture_run" ] || vm_skip "no $gesture_run (set BENCH_GESTURE_RUN or GESTURED_BIN_DIR)"
vm_note "gestured's lisgd: $gesture_run"
# The packaged layout: a link named lisgd to gesture-run.
mkdir -p "$VM_SCRATCH/bin"
ln -sf "$gesture_run" "$VM_SCRATCH/bin/lisgd"
bench_lisgd=lisgd
bench_gestured=$VM_SCRATCH/bin/lisgd
. "$VM_REPO/Tests/vm/bench_lisgd_measure.sh"
