#!/bin/sh
# Runs every test: unit and golden tests (swift test), then the real-kernel
# tests under qemu when the harness is present (set GESTURED_SKIP_VM=1 to skip).
set -eu
cd "$(dirname "$0")/.."
if [ -x Tests/vm/run.sh ] && [ -z "${GESTURED_SKIP_VM:-}" ]; then
  scripts/deps.sh --vm
else
  scripts/deps.sh
fi
swift build --build-tests
swift test
if [ -x Tests/vm/run.sh ] && [ -z "${GESTURED_SKIP_VM:-}" ]; then
  swift build
  Tests/vm/run.sh
fi
