#!/bin/sh
# Runs every test: unit and golden tests (swift test, under AddressSanitizer),
# the quick hot-path benchmark (scripts/bench.sh --quick), a short fuzzing run
# of each entry point, the Debian packages built and unit-tested with Debian
# trixie's Swift 6.0.3, and the real-kernel tests under qemu on the release
# build when the harness is present (set GESTURED_SKIP_VM=1 to skip).
#
# The Debian build and the qemu tests share nothing with the host's other
# steps, so they run beside them: each in a process group of its own (a failing
# step stops them all), its output kept in .build/ and shown when it ends, in
# this order: the host's steps, the Debian build, the qemu tests.
set -eu
cd "$(dirname "$0")/.."
vm=
if [ -x Tests/vm/run.sh ] && [ -z "${GESTURED_SKIP_VM:-}" ]; then vm=1; fi
if [ -n "$vm" ]; then
  scripts/deps.sh --vm
else
  scripts/deps.sh
fi
mkdir -p .build
groups=""
trap 'for g in $groups; do kill -TERM -- "-$g" 2>/dev/null || true; done' EXIT
# beside LOG COMMAND… — runs COMMAND in a process group of its own, output to LOG.
beside() {
  log=$1; shift
  setsid "$@" > "$log" 2>&1 &
  groups="$groups $!"
  echo "test.sh: $* beside the rest ($log)" >&2
}
# joined PID LOG WHAT — waits for PID, shows LOG, fails if it did.
joined() {
  rc=0
  wait "$1" || rc=$?
  cat "$2"
  if [ "$rc" -ne 0 ]; then
    echo "test.sh: $3 failed (exit $rc; output above)" >&2
    exit 1
  fi
}

# Debian trixie's own Swift (6.0.3): the Debian packages built as Debian's
# builders build them, offline, with the unit tests, then lintian
# (scripts/debian-build.sh; needs root for debootstrap and the build root's
# mounts; set GESTURED_SKIP_DEBIAN=1 to skip). `Tests/vm/run.sh trixie_package`
# installs what it built.
deb_pid=
if [ -z "${GESTURED_SKIP_DEBIAN:-}" ]; then
  if [ "$(id -u)" -eq 0 ]; then
    beside .build/debian-build.log scripts/debian-build.sh
    deb_pid=$!
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
# The real-kernel tests run the programs as they are installed: the release
# build with the Swift runtime linked in (`make build`; the bench above built
# gesturectl so already). Under qemu's emulation they also take about 14 % less
# CPU than a debug build's.
vm_pid=
if [ -n "$vm" ]; then
  make build
  beside .build/vm.log env GESTURED_BIN_DIR="$(swift build -c release --static-swift-stdlib --show-bin-path)" \
    Tests/vm/run.sh
  vm_pid=$!
fi
# Each fuzz target briefly from its seeds.
if [ -z "${GESTURED_SKIP_SANITIZERS:-}" ]; then
  scripts/fuzz.sh quick
fi
if [ -n "$deb_pid" ]; then joined "$deb_pid" .build/debian-build.log "the Debian build"; fi
if [ -n "$vm_pid" ]; then joined "$vm_pid" .build/vm.log "the qemu tests"; fi
