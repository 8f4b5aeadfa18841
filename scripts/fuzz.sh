#!/bin/sh
# Fuzzes gestured's entry points with libFuzzer: the evemu parser and replay,
# decoder + arena on raw device events, the config loader, the protocol session.
#
#   scripts/fuzz.sh quick            every target briefly, the same mutations each run
#                                    (CI: half a minute in all, once built)
#   scripts/fuzz.sh long [SECONDS]   every target in turn, SECONDS each (default 900)
#   scripts/fuzz.sh run TARGET [SECONDS] [libFuzzer flags…]
#                                    one target; TARGET is evemu, decoder, config or protocol
#
# Each target is built on its own (the whole package does not link with the
# fuzzer runtime) into .build/fuzz, with -DFUZZING so that its main runs
# libFuzzer's driver. Seeds are in Tests/fuzz/corpus/TARGET (committed, made
# from the fixtures); what a run finds goes to .build/fuzz/corpus/TARGET, and a
# crashing input to .build/fuzz/artifacts/ (GESTURED_FUZZ_DIR to build and keep
# them elsewhere). Long runs are niced; quick runs two at a time.
set -eu
cd "$(dirname "$0")/.."

TARGETS="evemu decoder config protocol"
SCRATCH=${GESTURED_FUZZ_DIR:-.build/fuzz}
SUPPRESSIONS="$PWD/scripts/lsan.supp"

product() {
  case "$1" in
    evemu) echo FuzzEvemu ;; decoder) echo FuzzDecoder ;; config) echo FuzzConfig ;; protocol) echo FuzzProtocol ;;
    *) echo "unknown fuzz target '$1' (known: $TARGETS)" >&2; exit 2 ;;
  esac
}

build() {
  p=$(product "$1")
  nice -n 19 swift build -c release --scratch-path "$SCRATCH" --product "$p" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
    -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld >&2
  echo "$SCRATCH/release/$p"
}

# run TARGET SECONDS [flags]
run() {
  t=$1; seconds=$2; shift 2
  exe=$(build "$t")
  fuzz "$t" "$exe" "$seconds" "$@"
}

# fuzz TARGET EXECUTABLE SECONDS [libFuzzer flags…]
fuzz() {
  t=$1; exe=$2; seconds=$3; shift 3
  mkdir -p "$SCRATCH/corpus/$t" "$SCRATCH/artifacts"
  echo "== fuzz $t for ${seconds}s" >&2
  SWIFT_BACKTRACE=enable=no \
  ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1" \
  LSAN_OPTIONS="suppressions=$SUPPRESSIONS:print_suppressions=0" \
    nice -n "$fuzz_nice" "$exe" -max_total_time="$seconds" -timeout="$fuzz_timeout" -rss_limit_mb=2048 -max_len=8192 \
      -print_final_stats=1 -artifact_prefix="$SCRATCH/artifacts/$t-" \
      "$@" "$SCRATCH/corpus/$t" "Tests/fuzz/corpus/$t"
}

# A long run keeps out of the way (nice 19) and calls an input that takes 10 s
# a hang. A quick run beside other work (CI runs it beside the qemu tests and
# the Debian build) keeps its share of the machine, or in 12 s it gets little
# done and a slow input looks like a hang: it runs at the caller's priority and
# allows 60 s.
fuzz_nice=19 fuzz_timeout=10
mode=${1:-quick}
case "$mode" in
  quick)
    fuzz_nice=0 fuzz_timeout=60
    # Half a minute in all once built: two targets at a time (a fuzzer keeps
    # one core busy), each one's output shown when the pair has ended.
    # The same mutations every run (-seed=1), so that what a run here finds a
    # run anywhere finds (a busy machine only gets less far along the same
    # sequence). A target that fails has its output shown last, then a line
    # per target and the input it failed on, in hex.
    for t in $TARGETS; do build "$t" >/dev/null; done
    set -- $TARGETS
    failed=""
    mkdir -p "$SCRATCH/artifacts"; : > "$SCRATCH/quick.start"
    while [ $# -gt 0 ]; do
      pair="$1 ${2:-}"; pids=""
      for t in $pair; do
        rm -f "$SCRATCH/$t.rc"
        { rc=0; fuzz "$t" "$SCRATCH/release/$(product "$t")" 12 -seed=1 > "$SCRATCH/$t.log" 2>&1 || rc=$?
          echo "$rc" > "$SCRATCH/$t.rc"; } &
        pids="$pids $!"
      done
      for p in $pids; do wait "$p" || true; done
      for t in $pair; do
        if [ "$(cat "$SCRATCH/$t.rc" 2>/dev/null)" = 0 ]; then cat "$SCRATCH/$t.log" >&2; else failed="$failed $t"; fi
      done
      shift; [ $# -gt 0 ] && shift
    done
    for t in $failed; do cat "$SCRATCH/$t.log" >&2; done
    for t in $TARGETS; do
      rc=$(cat "$SCRATCH/$t.rc" 2>/dev/null || echo none)
      if [ "$rc" = 0 ]; then echo "fuzz.sh: $t passed" >&2; continue; fi
      echo "fuzz.sh: $t FAILED (exit $rc; its output is above)" >&2
      for a in "$SCRATCH/artifacts/$t-"*; do
        [ -f "$a" ] && [ "$a" -nt "$SCRATCH/quick.start" ] || continue
        echo "fuzz.sh: $t's input $a:" >&2
        od -A d -t x1 -v "$a" | head -n 64 >&2
      done
    done
    [ -z "$failed" ] ;;
  long)
    seconds=${2:-900}
    for t in $TARGETS; do run "$t" "$seconds"; done ;;
  run)
    [ $# -ge 2 ] || { echo "usage: $0 run TARGET [SECONDS] [libFuzzer flags…]" >&2; exit 2; }
    t=$2; seconds=${3:-60}; shift 2; [ $# -gt 0 ] && shift
    run "$t" "$seconds" "$@" ;;
  build)
    for t in ${2:-$TARGETS}; do build "$t" >/dev/null; done ;;
  *)
    echo "usage: $0 quick | long [SECONDS] | run TARGET [SECONDS] [flags…] | build [TARGET]" >&2; exit 2 ;;
esac
