#!/bin/sh
# Grammar files are bounded: an endless pipe is read to 16 MiB and one byte
# more, then refused; a pipe of a real grammar is read; a device is refused
# without reading it (tests/cli/cases/check-dev-zero).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
yes '# a comment line, for ever' | "$KPATH" check /dev/stdin >"$tmp/out" 2>"$tmp/err"
status=$?
[ $status = 2 ] || fail "endless pipe: exit status $status"
grep -qx '/dev/stdin: error: input is more than 16777216 bytes, the limit for a grammar file' "$tmp/err" ||
    fail "endless pipe: $(cat "$tmp/err")"
"$KPATH" check /dev/stdin <grammars/expr.ebnf >"$tmp/out" 2>"$tmp/err" || fail "grammar from a file as stdin: $(cat "$tmp/err")"
cat grammars/expr.ebnf | "$KPATH" check /dev/stdin >"$tmp/out" 2>"$tmp/err" || fail "grammar from a pipe: $(cat "$tmp/err")"
exit 0
