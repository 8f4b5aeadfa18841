#!/bin/sh
# Peer benchmark on a real kernel: gestured (no clients; 10 subscribers; --stdout)
# beside lisgd and `libinput debug-events`, all reading the same uinput touchscreen
# at once while a seeded ten-finger recording plays, in one qemu guest (so all of
# them run under the same load). Prints CPU ticks, peak RSS, context switches
# (wakeups) and system calls side by side.
#
# Usage: scripts/peer-bench.sh [--seed N] [--events N]
#   GESTURED_BIN_DIR=DIR  use these binaries instead of a fresh release build
#   BENCH_ROUNDS=N        measured playbacks (default 3; the quietest counts)
# Compare only within one run: the guest is emulated (TCG), so ticks are slow and
# noisy in absolute terms; the ratios are what the budgets speak of.
set -eu
cd "$(dirname "$0")/.."
seed=10 events=43000
while [ $# -gt 0 ]; do
    case "$1" in
    --seed) seed=$2; shift 2 ;;
    --events) events=$2; shift 2 ;;
    *) echo "usage: $0 [--seed N] [--events N]" >&2; exit 2 ;;
    esac
done
scripts/deps.sh --vm
for p in lisgd strace; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || {
        [ "$(id -u)" -eq 0 ] || { echo "needs the Debian package $p" >&2; exit 2; }
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$p" >/dev/null
    }
done
if [ -z "${GESTURED_BIN_DIR:-}" ]; then
    # As `make` builds them: static Swift runtime.
    swift build -c release --static-swift-stdlib >&2
    GESTURED_BIN_DIR=$(swift build -c release --static-swift-stdlib --show-bin-path)
fi
export GESTURED_BIN_DIR
mkdir -p .build-vm-guest/bench
python3 scripts/gen-tenfinger.py --seed "$seed" --events "$events" .build-vm-guest/bench/tenfinger.events
results=$(pwd)/.build-vm-guest/runs/bench-$(date +%Y%m%d-%H%M%S)
VM_RESULTS_DIR=$results Tests/vm/run.sh bench_peers || true
tsv=$results/chroot/bench_peers/bench.tsv
[ -s "$tsv" ] || { echo "no results ($tsv)" >&2; exit 1; }
echo
echo "peer benchmark: seed $seed, $(grep -c '^E:' .build-vm-guest/bench/tenfinger.events) kernel events, binaries $GESTURED_BIN_DIR"
echo "(ticks at $(cut -d' ' -f2 "$results/chroot/bench_peers/clk_tck" 2>/dev/null || echo '?') Hz in a TCG guest, all readers on the same playbacks, each one's quietest of ${BENCH_ROUNDS:-3}; compare within this run only)"
awk -F'\t' '
    NR == 1 { next }
    { name[NR] = $1; play[NR] = $2; total[NR] = $3; rss[NR] = $4; cs[NR] = $5; idle[NR] = $6; idlet[NR] = $7; sc[NR] = $8; out[NR] = $9; sys[NR] = $10
      if ($1 == "lisgd") { lplay = $2; lrss = $4 } }
    END {
        printf "%-16s %10s %10s %11s %12s %9s %10s %12s %14s %12s  %s\n", "reader", "CPU ticks", "of it sys", "vs lisgd", "peak RSS MB", "vs lisgd", "ctx sw", "idle 10 s", "idle ticks", "syscalls", "lines out"
        for (i = 2; i <= NR; i++)
            printf "%-16s %10d %10s %11s %12.1f %9s %10d %12d %14d %12s  %s\n", name[i], play[i], (sys[i] == "" ? "-" : sys[i]),
                (lplay > 0 ? sprintf("%.2fx", play[i] / lplay) : "-"), rss[i] / 1024,
                (lrss > 0 ? sprintf("%.2fx", rss[i] / lrss) : "-"), cs[i], idle[i], idlet[i], sc[i], out[i]
    }' "$tsv"
lat=$results/chroot/bench_peers/latency.txt
if [ -s "$lat" ]; then
    echo
    echo "latency of discrete gestures, deciding frame (or deadline) -> read by a subscriber / -> daemon's emitted, ms:"
    sort -n -k2 "$lat" | awk '{ r[NR] = $2; e[NR] = $3; se += $3 } END {
        printf "  n %d, subscriber median %.2f, p90 %.2f, max %.2f; emitted mean %.2f\n", NR, r[int((NR + 1) / 2)], r[int(NR * 0.9 + 0.5)], r[NR], se / NR }'
fi
for f in "$results"/chroot/bench_peers/*.strace; do
    [ -s "$f" ] || continue
    echo
    echo "== $(basename "$f" .strace): top system calls while playing (strace -c -f)"
    sed -n '1,12p' "$f"
done
