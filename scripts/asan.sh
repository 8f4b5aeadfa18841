#!/bin/sh
# Runs the unit tests under AddressSanitizer with LeakSanitizer: a use after
# free, an overflow or a leak fails the run. Builds into .build/asan, apart from
# the ordinary build. Only swift-testing runs (the XCTest runner, which the
# tests do not use, leaks at exit). The only suppressions (scripts/lsan.supp) are for
# third-party code; gestured's own code has none.
#
# Four suites are left out unless GESTURED_ASAN_ALL=1: the recognizers' accuracy
# over thousands of recorded and generated strokes (AccuracyTests,
# TemplateProtocolTests, TaughtShapeBesideBuiltInsTests, BuiltinShapeTests).
# They run the same code as the recognizers' own suites, many times over, and
# take most of the time under the sanitizer: left to a plain `swift test` when
# this script is run after one. scripts/test.sh, whose only run of the unit
# tests is this one, sets GESTURED_ASAN_ALL=1.
set -eu
cd "$(dirname "$0")/.."
SCRATCH=.build/asan
skip="RecognitionTests\.(AccuracyTests|TemplateProtocolTests|TaughtShapeBesideBuiltInsTests)/|GestureCoreTests\.BuiltinShapeTests/"
[ -n "${GESTURED_ASAN_ALL:-}" ] && skip='^$'
# The build's output is kept: a warning in gestured's own sources or tests
# fails the run (a fresh build, as CI's, compiles every file and shows them all;
# an incremental one only those it compiles again).
mkdir -p "$SCRATCH"
log=$SCRATCH/build.log
if ! swift build --build-tests --scratch-path "$SCRATCH" --sanitize=address \
  -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld > "$log" 2>&1; then
  cat "$log"
  exit 1
fi
cat "$log"
own=$(grep -E '^/[^ ]*/(Sources|Tests)/[^ ]*:[0-9]+:[0-9]+: warning:' "$log" | grep -v '/\.build/' | sort -u || true)
if [ -n "$own" ]; then
  echo "asan.sh: the build warns; gestured builds without warnings:" >&2
  echo "$own" >&2
  exit 1
fi
SWIFT_BACKTRACE=enable=no \
ASAN_OPTIONS="detect_leaks=1:abort_on_error=0" \
LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0" \
  swift test --skip-build --scratch-path "$SCRATCH" --sanitize=address --disable-xctest --skip "$skip" "$@"
