#!/bin/sh
# Sets up, builds, and runs gestured. With a touchscreen (and permission to read
# /dev/input), runs the daemon in the foreground printing gestures as JSON lines.
# Without one, replays a bundled real recording through the same pipeline.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh
swift build -c release --product gestured >&2
swift build -c release --product gesturectl >&2
bin=.build/release
if ls /dev/input/event* >/dev/null 2>&1 && [ -z "${GESTURED_REPLAY:-}" ] \
   && "$bin/gesturectl" devices --in-use >/dev/null 2>&1; then
  sock=/run/gestured/events.sock
  [ "$(id -u)" -eq 0 ] || sock="${XDG_RUNTIME_DIR:-/tmp}/gestured.sock"
  echo "gestured: touchscreen found; printing gestures, subscribers on $sock (Ctrl-C to stop)" >&2
  exec "$bin/gestured" --stdout --socket "$sock" "$@"
fi
rec=Tests/fixtures/recordings/Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events
echo "gestured: no touchscreen here; replaying the bundled recording $rec (9 fast taps on an Atmel maXTouch)" >&2
exec "$bin/gesturectl" replay "$rec" "$@"
