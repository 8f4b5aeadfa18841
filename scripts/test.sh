#!/bin/sh
# Runs every test: unit and golden tests (swift test, under AddressSanitizer),
# the quick hot-path benchmark (scripts/bench.sh --quick), a short fuzzing run
# of each entry point, the Debian packages
# built and unit-tested with Debian trixie's Swift 6.0.3 (beside the host's
# steps), then the real-kernel tests under qemu on the release build when the
# harness is present (set GESTURED_SKIP_VM=1 to skip).
set -eu
cd "$(dirname "$0")/.."
if [ -x Tests/vm/run.sh ] && [ -z "${GESTURED_SKIP_VM:-}" ]; then
  scripts/deps.sh --vm
else
  scripts/deps.sh
fi
# Debian trixie's own Swift (6.0.3): the Debian packages built as Debian's
# builders build them, offline, with the unit tests, then lintian
# (scripts/debian-build.sh; needs root for debootstrap and the build root's
# mounts; set GESTURED_SKIP_DEBIAN=1 to skip). It shares nothing with the host's
# build, so it runs beside the host's steps below, its output kept in
# .build/debian-build.log and shown when it ends; the VM's trixie scenario
# installs what it built.
deb_pid=
if [ -z "${GESTURED_SKIP_DEBIAN:-}" ]; then
  if [ "$(id -u)" -eq 0 ]; then
    mkdir -p .build
    # A process group of its own, so that a failing step below stops all of it.
    setsid scripts/debian-build.sh > .build/debian-build.log 2>&1 &
    deb_pid=$!
    trap 'kill -TERM -- "-$deb_pid" 2>/dev/null || true' EXIT
    echo "test.sh: building the Debian packages alongside (.build/debian-build.log)" >&2
  else
    echo "test.sh: the Debian build needs root (scripts/debian-build.sh); skipped" >&2
  fi
fi
# Formatting (.swift-format): fails on unformatted Swift sources; where there is
# no swift-format (Debian's Swift 6.0.3) it says so and passes.
scripts/format.sh --check
# The unit and golden tests (swift test), once: under AddressSanitizer +
# LeakSanitizer (scripts/asan.sh, its own build in .build/asan), so that a use
# after free, an overflow or a leak fails them too. GESTURED_SKIP_SANITIZERS=1
# runs them in the plain debug build instead, and leaves out the fuzzing below.
if [ -z "${GESTURED_SKIP_SANITIZERS:-}" ]; then
  GESTURED_ASAN_ALL=1 scripts/asan.sh
else
  swift build --build-tests
  swift test
fi
# The hot path in a release build: prints the cost per event and the
# allocations per frame of every fixture; fails only if a steady moving frame
# allocates (set GESTURED_SKIP_BENCH=1 to skip).
if [ -z "${GESTURED_SKIP_BENCH:-}" ]; then
  scripts/bench.sh --quick
fi
# Each fuzz target briefly from its seeds.
if [ -z "${GESTURED_SKIP_SANITIZERS:-}" ]; then
  scripts/fuzz.sh quick
fi
# The Debian build started above: its output, and its verdict.
if [ -n "$deb_pid" ]; then
  deb_rc=0
  wait "$deb_pid" || deb_rc=$?
  trap - EXIT
  cat .build/debian-build.log
  if [ "$deb_rc" -ne 0 ]; then
    echo "test.sh: the Debian build failed (exit $deb_rc; output above)" >&2
    exit 1
  fi
fi
# The real-kernel tests run the programs as they are installed: the release
# build with the Swift runtime linked in (`make build`; the bench above built
# gesturectl so already). Under qemu's emulation they also take about 14 % less
# CPU than a debug build's.
if [ -x Tests/vm/run.sh ] && [ -z "${GESTURED_SKIP_VM:-}" ]; then
  make build
  GESTURED_BIN_DIR=$(swift build -c release --static-swift-stdlib --show-bin-path) Tests/vm/run.sh
fi
