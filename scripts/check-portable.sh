#!/bin/sh
# Checks that executables run on a machine without a Swift toolchain: no Swift,
# Foundation or dispatch library among their NEEDED entries, no RUNPATH outside
# $ORIGIN, and (as root, with unshare) `BIN --help` still runs with the
# toolchain's library directory hidden under an empty tmpfs.
# Usage: scripts/check-portable.sh BIN...
set -eu
[ $# -gt 0 ] || { echo "usage: $0 BIN..." >&2; exit 2; }
status=0
toolchain_lib=""
if swiftc=$(command -v swiftc 2>/dev/null); then
  toolchain_lib=$(cd "$(dirname "$(readlink -f "$swiftc")")/../lib" && pwd)
fi
for bin in "$@"; do
  dyn=$(readelf -d "$bin")
  bad=$(printf '%s\n' "$dyn" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
        grep -E '^lib(swift|Foundation|_Foundation|dispatch|BlocksRuntime)' || true)
  if [ -n "$bad" ]; then
    echo "$bin: needs toolchain libraries:" $bad >&2; status=1
  fi
  runpath=$(printf '%s\n' "$dyn" | sed -n 's/.*(R.*PATH).*\[\(.*\)\]/\1/p' | tr ':' '\n' | grep -v '^\$ORIGIN$' || true)
  if [ -n "$runpath" ]; then
    echo "$bin: RUNPATH points at" $runpath >&2; status=1
  fi
  if [ -n "$toolchain_lib" ] && [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null; then
    if out=$(unshare --mount sh -c "mount -t tmpfs none '$toolchain_lib' && '$bin' --help" 2>&1); then
      echo "$bin: runs with $toolchain_lib hidden: $(printf '%s\n' "$out" | head -n 1)"
    else
      echo "$bin: does not run with $toolchain_lib hidden: $out" >&2; status=1
    fi
  else
    echo "$bin: NEEDED and RUNPATH are fine (run as root to also hide the toolchain)"
  fi
done
exit $status
