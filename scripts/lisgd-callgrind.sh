#!/bin/sh
# What gestured's `lisgd` spends per frame on Sxmo's bindings, by instruction count:
# `gesturectl lisgd --replay` of the 49 phone strokes (Tests/fixtures/phone) with
# Sxmo's 46 bindings and options (Tests/vm/sxmo_lisgd.sh) under callgrind. Prints
# the replay's total, the recognition's share (Arena.handle and everything under
# it; draining the events and finding each one's binding) and the fires, which must
# not change with a change that only makes it cheaper.
#
# Usage: scripts/lisgd-callgrind.sh [BIN_DIR]   (default: a fresh release build)
# Output: .build-vm-guest/lisgd-callgrind/{callgrind.out,annotate.txt,fires.txt}
#
# scripts/lisgd-callgrind.sh --live GESTURE_RUN: the whole program as it runs on a
# phone, on a real kernel: GESTURE_RUN (a link named lisgd to it) reads a uinput
# phone panel through libevdev under callgrind in a TCG guest while the 49
# strokes play twice (Tests/vm/scenarios/callgrind_lisgd.sh, ~10 min); prints
# the start with the warm-up playback, and the measured playback by part.
set -eu
cd "$(dirname "$0")/.."
repo=$(pwd)
if [ "${1:-}" = --live ]; then
    run=$(readlink -f "$2")
    results=$repo/.build-vm-guest/runs/lisgd-callgrind-$(date +%Y%m%d-%H%M%S)
    BENCH_GESTURE_RUN=$run VM_RESULTS_DIR=$results Tests/vm/run.sh callgrind_lisgd >&2 || true
    r=$results/chroot/callgrind_lisgd
    [ -f "$r/callgrind.out" ] || { echo "no $r/callgrind.out" >&2; exit 1; }
    part() { # FILE LABEL PATTERN — inclusive instructions of the first function matching PATTERN
        n=$(grep -E "$3" "$1" | grep -v '=>' | head -n1 | sed 's/^ *\([0-9,]*\).*/\1/')
        printf '  %-44s %s\n' "$2" "${n:-0}"
    }
    for f in "$r"/callgrind.out*; do
        callgrind_annotate --inclusive=yes --threshold=100 "$f" > "$f.annotate" 2>/dev/null
    done
    echo "gestured's lisgd ($run), Sxmo's bindings, live in a guest"
    echo "start and warm-up playback: $(sed -n 's/^\([0-9,]*\) (100.0%).*PROGRAM TOTALS.*/\1/p' "$r/callgrind.out.1.annotate") instructions"
    a=$r/callgrind.out.annotate
    fires=$(wc -l < "$r/fires.txt")
    # The replay of the same strokes fires 89 commands: a playback with fewer lost
    # events (the guest was too slow for callgrind) and does not count.
    [ "$fires" -eq 89 ] || echo "the measured playback fired $fires commands, not the replay's 89: events were lost, run it again on a quieter host"
    echo "measured playback, fires $fires: $(sed -n 's/^\([0-9,]*\) (100.0%).*PROGRAM TOTALS.*/\1/p' "$a") instructions, of them"
    part "$a" "reading the device (all below)" 'EvdevDeviceC4read'
    part "$a" "  libevdev_next_event" 'libevdev_next_event'
    part "$a" "  DevicePipeline.feed (decoder, arena)" 'DevicePipelineC4feed'
    part "$a" "    Arena.handle" 'ArenaC6handle'
    part "$a" "      Arena.dispatch" 'ArenaC8dispatch'
    part "$a" "  Arena.nextDeadline" 'ArenaC12nextDeadline'
    part "$a" "events to commands (LisgdRunner.dispatch)" 'RunnerC8dispatch'
    part "$a" "  DevicePipeline.drain" 'DevicePipelineC5drain'
    part "$a" "  ActionRunner.run (starting commands)" 'ActionRunnerC3run'
    part "$a" "swift_retain" ':swift_retain '
    part "$a" "swift_release" ':swift_release '
    part "$a" "malloc" 'malloc.c:malloc '
    echo "(inclusive, by function: $a)"
    exit 0
fi
bin=${1:-}
if [ -z "$bin" ]; then
    swift build -c release --product gesturectl >&2
    bin=$(swift build -c release --show-bin-path)
fi
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 2; }
out=$repo/.build-vm-guest/lisgd-callgrind
mkdir -p "$out"
VM_REPO=$repo
. "$repo/Tests/vm/sxmo_lisgd.sh"
strokes=$repo/Tests/fixtures/phone/strokes
# valgrind cannot read the toolchain's DWARF 5: the symbols are enough.
objcopy --strip-debug "$bin/gesturectl" "$out/gesturectl"
sxmo_launcher "$out/run.sh" /dev/null label "$out/gesturectl" lisgd --replay "$strokes.events" \
    --desc "$strokes.desc" $SXMO_LISGD_OPTIONS
sh "$out/run.sh" > "$out/fires.txt"
sed -i "s|^exec |exec valgrind --tool=callgrind --callgrind-out-file=$out/callgrind.out |" "$out/run.sh"
sh "$out/run.sh" > /dev/null 2> "$out/valgrind.txt" || { tail -n 5 "$out/valgrind.txt" >&2; exit 1; }
callgrind_annotate --inclusive=yes --threshold=99 "$out/callgrind.out" > "$out/annotate.txt" 2>/dev/null
total=$(sed -n 's/^\([0-9,]*\) (100.0%).*PROGRAM TOTALS.*/\1/p' "$out/annotate.txt")
echo "gesturectl lisgd --replay, Sxmo's bindings, the 49 phone strokes ($bin)"
echo "fires: $(wc -l < "$out/fires.txt") (sha256 $(sha256sum < "$out/fires.txt" | cut -c1-16))"
echo "instructions: $total in all"
grep -E 'DevicePipelineC4feed|DevicePipelineC5drain|ArenaC6handle|ArenaC7advance|ArenaC8dispatch|SwipeRecognizerC6handle|PanRecognizerC6handle|LisgdTranslationV7binding|LisgdCommandV6replay' \
    "$out/annotate.txt" | grep -v '=>' | head -n 12 | cut -c1-140 | sed 's/^/  /'
echo "(inclusive, by function: $out/annotate.txt)"
