#!/bin/sh
# Rewrites the expected events of the golden replays (Tests/fixtures/expected):
# every recording in Tests/fixtures/recordings through the built-in config, one
# JSON line per event, failures included. Run it after a deliberate change of
# behaviour and read the diff (`git diff Tests/fixtures/expected`) before you
# commit it: that diff is the change a user will see.
set -eu
cd "$(dirname "$0")/.."
swift build --product gesturectl >&2
bin=$(swift build --show-bin-path)/gesturectl
mkdir -p Tests/fixtures/expected
for f in Tests/fixtures/recordings/*.event Tests/fixtures/recordings/*.events; do
  "$bin" replay --failures "$f" >"Tests/fixtures/expected/$(basename "$f").jsonl" 2>/dev/null
done
git status --short Tests/fixtures/expected
