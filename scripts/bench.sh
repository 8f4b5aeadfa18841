#!/bin/sh
# Hot-path benchmark, as gestured ships (release, static Swift runtime): per
# recording, the time per kernel event through decoder, arena, the default
# recognizers and the socket's serialisation of every event they emit, and the
# heap allocations per frame, counted in the process (gesturectl's malloc
# counter; no valgrind). Recordings: the fixtures, the human strokes and the
# seeded ten-finger session of scripts/gen-tenfinger.py.
# Usage: scripts/bench.sh [--quick] [RECORDING…]
#   --quick  20 timed replays instead of 200; fails (exit 1) only if a steady
#            moving frame allocated, or on a crash; never on timing. CI runs it.
set -eu
cd "$(dirname "$0")/.."
quick=
if [ "${1:-}" = --quick ]; then quick=--quick; shift; fi
if [ $# -eq 0 ]; then
  mkdir -p .build/bench
  python3 scripts/gen-tenfinger.py --seed 10 --events 43000 .build/bench/tenfinger.events >&2
  set -- Tests/fixtures/recordings/*.events Tests/fixtures/strokes/*.events .build/bench/tenfinger.events
fi
swift build -c release --static-swift-stdlib --product gesturectl >&2
exec "$(swift build -c release --static-swift-stdlib --show-bin-path)/gesturectl" bench $quick "$@"
