#!/bin/sh
# Runs the unit tests under AddressSanitizer with LeakSanitizer: a use after
# free, an overflow or a leak fails the run. Builds into .build/asan, apart from
# the ordinary build. Only swift-testing runs (the XCTest runner, which the
# tests do not use, leaks at exit). The only suppressions (scripts/lsan.supp) are for
# third-party code; gestured's own code has none.
set -eu
cd "$(dirname "$0")/.."
SCRATCH=.build/asan
swift build --build-tests --scratch-path "$SCRATCH" --sanitize=address \
  -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
SWIFT_BACKTRACE=enable=no \
ASAN_OPTIONS="detect_leaks=1:abort_on_error=0" \
LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0" \
  swift test --skip-build --scratch-path "$SCRATCH" --sanitize=address --disable-xctest "$@"
