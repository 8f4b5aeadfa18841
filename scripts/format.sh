#!/bin/sh
# Formats the Swift sources (Sources, Tests, Package.swift) with swift-format
# and the committed .swift-format configuration.
#
#   scripts/format.sh          reformats the files in place
#   scripts/format.sh --check  changes nothing; lists the files that are not
#                              formatted and exits 1 if there are any
#
# A file is formatted when swift-format would leave it as it is. The generated
# Sources/GestureConfig/DefaultConfig.swift (scripts/embed-default-config.sh)
# is left as generated.
#
# swift-format comes with the swift.org toolchains (`swift format`, 6.x);
# SWIFT_FORMAT=/path/to/swift-format picks another. Debian's Swift 6.0.3 has
# none: then the script says so and exits 0 without checking. Releases of
# swift-format may lay out the same code differently; the tree is formatted with
# the one CI uses (the swift.org 6.3 toolchain's).
set -eu
cd "$(dirname "$0")/.."

check=false
case "${1:-}" in
  "") ;;
  --check) check=true ;;
  -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

# The formatter: $SWIFT_FORMAT, else swift-format on PATH, else `swift format`.
if [ -n "${SWIFT_FORMAT:-}" ]; then
  set -- "$SWIFT_FORMAT"
elif command -v swift-format >/dev/null 2>&1; then
  set -- swift-format
elif command -v swift >/dev/null 2>&1 && swift format --version >/dev/null 2>&1; then
  set -- swift format
else
  echo "format.sh: no swift-format here (neither swift-format nor 'swift format'; Debian's Swift 6.0.3 has none): formatting not checked" >&2
  exit 0
fi
version=$("$@" --version 2>/dev/null || echo unknown)

generated=Sources/GestureConfig/DefaultConfig.swift
list_files() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git ls-files --cached --others --exclude-standard -- 'Sources/*.swift' 'Tests/*.swift' Package.swift
  else
    { find Sources Tests -name '*.swift' -type f; echo Package.swift; }
  fi | grep -vxF "$generated" | while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done
}

files=$(list_files)
[ -n "$files" ] || { echo "format.sh: no Swift files found" >&2; exit 1; }

if ! $check; then
  printf '%s\n' "$files" | tr '\n' '\0' |
    xargs -0 "$@" format --in-place --parallel --configuration .swift-format
  exit 0
fi

# --check: format a copy and compare it with the files.
mkdir -p .build
scratch=$(mktemp -d .build/format-check.XXXXXX)
trap 'rm -rf "$scratch"' EXIT INT TERM
printf '%s\n' "$files" | tr '\n' '\0' | xargs -0 cp --parents -t "$scratch"
cp .swift-format "$scratch/"
if ! (cd "$scratch" && printf '%s\n' "$files" | tr '\n' '\0' |
      xargs -0 "$@" format --in-place --parallel --configuration .swift-format); then
  echo "format.sh: swift-format ($version) could not format the files above" >&2
  exit 1
fi
unformatted=$(printf '%s\n' "$files" | while IFS= read -r f; do
  cmp -s "$f" "$scratch/$f" || printf '%s\n' "$f"
done)
if [ -n "$unformatted" ]; then
  count=$(printf '%s\n' "$unformatted" | wc -l)
  {
    echo "format.sh: $count file(s) are not formatted as .swift-format says (swift-format $version):"
    printf '%s\n' "$unformatted" | sed 's/^/  /'
    echo "The first differences (- as committed, + as formatted):"
    printf '%s\n' "$unformatted" | while IFS= read -r f; do
      diff -u "$f" "$scratch/$f" || true
    done | head -n 60
    echo "Run scripts/format.sh to format them, then commit the result."
  } >&2
  exit 1
fi
echo "format.sh: all $(printf '%s\n' "$files" | wc -l) Swift files are formatted (swift-format $version)"
