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
set -eu
cd "$(dirname "$0")/.."
repo=$(pwd)
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
