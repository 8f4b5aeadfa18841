#!/bin/sh
# gestured's `lisgd` beside Debian's lisgd, on a real kernel: both read one uinput
# phone panel at once with Sxmo's 46 bindings while the 49 labelled phone strokes
# play, in one qemu guest (Tests/vm/scenarios/bench_lisgd.sh). Prints CPU ticks
# and peak RSS side by side, each one's quietest of BENCH_ROUNDS playbacks.
#
# Usage: scripts/lisgd-bench.sh [--trixie DIR | --deb FILE | --gesture-run FILE]
#   --trixie DIR        as packaged: the gestured and gestured-lisgd .debs in DIR
#                       (scripts/debian-build.sh DIR makes them), installed with apt
#                       in a Debian trixie guest beside trixie's own lisgd
#                       (bench_lisgd_trixie; scripts/trixie-lisgd-debs.sh fetches it)
#   --deb FILE          the gestured .deb to measure (its /usr/libexec/gestured/gesture-run,
#                       as the gestured-lisgd package's /usr/bin/lisgd runs it). The
#                       guest runs this machine's root: a .deb built for trixie needs
#                       trixie's glibc and does not start on bookworm (said, exit 2).
#   --gesture-run FILE  a gesture-run binary; without either, a fresh release build
#                       with --static-swift-stdlib
#   BENCH_ROUNDS=N      playbacks measured (default 3; the quietest counts)
#   BENCH_VARIANTS="LABEL=FILE ..."  more gesture-run builds read the same playbacks
# Compare only within one run: the guest is emulated (TCG).
set -eu
cd "$(dirname "$0")/.."
deb= run= trixie=
while [ $# -gt 0 ]; do
    case "$1" in
    --trixie) trixie=$(readlink -f "$2"); shift 2 ;;
    --deb) deb=$2; shift 2 ;;
    --gesture-run) run=$2; shift 2 ;;
    *) echo "usage: $0 [--trixie DIR | --deb FILE | --gesture-run FILE]" >&2; exit 2 ;;
    esac
done
scripts/deps.sh --vm
if [ -n "$trixie" ]; then
    ls "$trixie"/gestured_*.deb "$trixie"/gestured-lisgd_*.deb > /dev/null || { echo "no .debs in $trixie" >&2; exit 2; }
    case "$trixie" in "$(pwd -P)"/*) ;; *) echo "$trixie must lie inside the repository (the guest sees only it)" >&2; exit 2 ;; esac
    peer=$(scripts/trixie-lisgd-debs.sh)
    results=$(pwd)/.build-vm-guest/runs/lisgd-bench-trixie-$(date +%Y%m%d-%H%M%S)
    GESTURED_DEB_DIR=$trixie BENCH_LISGD_DEB_DIR=$peer VM_RESULTS_DIR=$results Tests/vm/run.sh bench_lisgd_trixie || true
    tsv=$results/trixie/bench_lisgd_trixie/bench.tsv
    what="$(cd "$trixie" && ls gestured_*.deb gestured-lisgd_*.deb | tr '\n' ' ')installed in a trixie guest"
    lisgd_version=$(dpkg-deb -f "$(ls "$peer"/lisgd_*.deb | head -n1)" Version)
else
    dpkg-query -W -f='${Status}' lisgd 2>/dev/null | grep -q "install ok installed" || {
        [ "$(id -u)" -eq 0 ] || { echo "needs the Debian package lisgd" >&2; exit 2; }
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends lisgd >/dev/null
    }
    if [ -n "$deb" ]; then
        x=.build-vm-guest/bench/deb
        rm -rf "$x"; mkdir -p "$x"
        dpkg-deb -x "$deb" "$x"
        run=$(pwd)/$x/usr/libexec/gestured/gesture-run
        what="$(basename "$deb")"
    elif [ -z "$run" ]; then
        swift build -c release --static-swift-stdlib --product gesture-run >&2
        run=$(swift build -c release --static-swift-stdlib --show-bin-path)/gesture-run
        what="release build, --static-swift-stdlib"
    else
        run=$(readlink -f "$run")
        what=$run
    fi
    [ -x "$run" ] || { echo "no gesture-run at $run" >&2; exit 2; }
    # It must start here: the guest runs this machine's libraries.
    if "$run" --help 2>&1 | grep -q "not found"; then
        echo "$run does not start on this system (the guest runs this root):" >&2
        "$run" --help 2>&1 | head -n 3 >&2
        exit 2
    fi
    results=$(pwd)/.build-vm-guest/runs/lisgd-bench-$(date +%Y%m%d-%H%M%S)
    BENCH_GESTURE_RUN=$run VM_RESULTS_DIR=$results Tests/vm/run.sh bench_lisgd || true
    tsv=$results/chroot/bench_lisgd/bench.tsv
    lisgd_version=$(dpkg-query -W -f='${Version}' lisgd)
fi
[ -s "$tsv" ] || { echo "no results ($tsv)" >&2; exit 1; }
echo
echo "gestured's lisgd ($what) beside Debian's lisgd $lisgd_version:"
echo "Sxmo's 46 bindings, the 49 phone strokes; ticks at 100 Hz in a TCG guest, each one's quietest of ${BENCH_ROUNDS:-3} playbacks"
awk -F'\t' '
    NR == 1 { next }
    { name[NR] = $1; play[NR] = $2; sys[NR] = $3; rss[NR] = $4; cs[NR] = $5; fires[NR] = $6; all[NR] = $7
      us[NR] = $8; allus[NR] = $9
      if ($1 == "lisgd") { lplay = $2; lrss = $4; lus = $8 } }
    END {
        printf "%-10s %10s %10s %9s %12s %9s %10s %6s  %s\n", "reader", "CPU ticks", "of it sys", "vs lisgd", "peak RSS MB", "vs lisgd", "ctx sw", "fires", "ticks per round"
        for (i = 2; i <= NR; i++)
            printf "%-10s %10d %10d %9s %12.2f %9s %10d %6d  %s\n", name[i], play[i], sys[i],
                (lplay > 0 ? sprintf("%.2fx", play[i] / lplay) : "-"), rss[i] / 1024,
                (lrss > 0 ? sprintf("%.2fx", rss[i] / lrss) : "-"), cs[i], fires[i], all[i]
        if (lus == "") exit
        printf "\ntime on a CPU (schedstat), each one'"'"'s quietest playback:\n"
        printf "%-10s %10s %9s  %s\n", "reader", "CPU ms", "vs lisgd", "ms per round"
        for (i = 2; i <= NR; i++) {
            n = split(allus[i], a, ","); rounds = ""
            for (k = 1; k <= n; k++) rounds = rounds (k > 1 ? "," : "") sprintf("%.1f", a[k] / 1000)
            printf "%-10s %10.1f %9s  %s\n", name[i], us[i] / 1000,
                (lus > 0 ? sprintf("%.3fx", us[i] / lus) : "-"), rounds
        }
    }' "$tsv"
echo
echo "resident memory by mapping: $(dirname "$tsv")/smaps.txt"
