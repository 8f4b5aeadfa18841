#!/bin/sh
# Hot-path benchmark: time per kernel event and per frame (release build), and
# heap allocations per frame, counted by valgrind as the difference between a
# short and a long run of the same recordings (so start-up is not counted).
# Usage: scripts/bench.sh [RECORDING…]
set -eu
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- Tests/fixtures/recordings/*.events Tests/fixtures/strokes/*.events
swift build -c release --product gesturectl >&2
bin=.build/release/gesturectl
echo "== time (release, 200 iterations)"
"$bin" bench --iterations 200 "$@"
if ! command -v valgrind >/dev/null; then echo "(valgrind not installed: no allocation count)"; exit 0; fi
# valgrind 3.19 cannot read the DWARF 5 that Swift writes: count on a stripped copy.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
strip -o "$tmp/gesturectl" "$bin"
count() {
  n=$1; shift
  valgrind "$tmp/gesturectl" bench --iterations "$n" "$@" >"$tmp/out" 2>&1 || true
  frames=$(sed -n 's/.*frames \([0-9]*\),.*/\1/p' "$tmp/out")
  allocs=$(sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' "$tmp/out" | tr -d ,)
  echo "$frames $allocs"
}
a=$(count 2 "$@"); b=$(count 12 "$@")
set -- $a $b
echo "== heap allocations (valgrind), 10 extra iterations"
echo "frames $(( $3 - $1 )), allocations $(( $4 - $2 ))" | awk '{ printf "%s %s %s %s, %.3f allocations per frame (failure reasons and events, per gesture, not per moving frame)\n", $1, $2, $3, $4, $4/$2 }'
