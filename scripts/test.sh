#!/bin/sh
# Runs every test: unit and golden tests (swift test), the quick hot-path
# benchmark (scripts/bench.sh --quick), the unit tests under
# AddressSanitizer, a short fuzzing run of each entry point, then the real-kernel
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
# The hot path in a release build: prints the cost per event and the
# allocations per frame of every fixture; fails only if a steady moving frame
# allocates (set GESTURED_SKIP_BENCH=1 to skip).
if [ -z "${GESTURED_SKIP_BENCH:-}" ]; then
  scripts/bench.sh --quick
fi
# The unit tests again under AddressSanitizer + LeakSanitizer, then each fuzz
# target briefly from its seeds (set GESTURED_SKIP_SANITIZERS=1 to skip both).
if [ -z "${GESTURED_SKIP_SANITIZERS:-}" ]; then
  scripts/asan.sh
  scripts/fuzz.sh quick
fi
if [ -x Tests/vm/run.sh ] && [ -z "${GESTURED_SKIP_VM:-}" ]; then
  swift build
  Tests/vm/run.sh
fi
