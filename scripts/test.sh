#!/bin/sh
# Runs every test: unit and golden tests (swift test), the quick hot-path
# benchmark (scripts/bench.sh --quick), the unit tests under
# AddressSanitizer, a short fuzzing run of each entry point, the Debian packages
# built and unit-tested with Debian trixie's Swift 6.0.3, then the real-kernel
# tests under qemu when the harness is present (set GESTURED_SKIP_VM=1 to skip).
set -eu
cd "$(dirname "$0")/.."
if [ -x Tests/vm/run.sh ] && [ -z "${GESTURED_SKIP_VM:-}" ]; then
  scripts/deps.sh --vm
else
  scripts/deps.sh
fi
# Formatting (.swift-format): fails on unformatted Swift sources; where there is
# no swift-format (Debian's Swift 6.0.3) it says so and passes.
scripts/format.sh --check
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
# Debian trixie's own Swift (6.0.3): the Debian packages built as Debian's
# builders build them, offline, with the unit tests, then lintian
# (scripts/debian-build.sh; needs root for debootstrap and the build root's
# mounts; set GESTURED_SKIP_DEBIAN=1 to skip). The VM's trixie scenario installs
# what it built.
if [ -z "${GESTURED_SKIP_DEBIAN:-}" ]; then
  if [ "$(id -u)" -eq 0 ]; then
    scripts/debian-build.sh
  else
    echo "test.sh: the Debian build needs root (scripts/debian-build.sh); skipped" >&2
  fi
fi
if [ -x Tests/vm/run.sh ] && [ -z "${GESTURED_SKIP_VM:-}" ]; then
  swift build
  Tests/vm/run.sh
fi
