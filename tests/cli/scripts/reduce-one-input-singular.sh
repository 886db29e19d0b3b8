#!/bin/sh
# One input: reduce says "1 input", not "1 inputs".
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/in" && printf '1+1' >"$tmp/in/a"
"$KPATH" reduce grammars/expr.ebnf "$tmp/in" >"$tmp/out" 2>"$tmp/err" || fail "exit status $?: $(cat "$tmp/err")"
grep -q 'inputs' "$tmp/out" && fail "a plural for one input: $(grep inputs "$tmp/out")"
grep -qx 'kept 1 of 1 input: 3 of 3 bytes (mean 3.0)' "$tmp/out" || fail "kept line: $(head -1 "$tmp/out")"
grep -q ': all of what the 1 input covers$' "$tmp/out" || fail "coverage kept line"
grep -q 'greedy 1 input (3 bytes)' "$tmp/out" || fail "method line"
grep -qx 'optimal: 1 input, and no subset of 1 input has fewer bytes' "$tmp/out" || fail "optimal line"
# Two: plural.
printf '2' >"$tmp/in/b"
"$KPATH" reduce grammars/expr.ebnf "$tmp/in" >"$tmp/out" 2>"$tmp/err" || fail "two: exit status $?"
grep -q '^kept [12] of 2 inputs: ' "$tmp/out" || fail "two: $(head -1 "$tmp/out")"
exit 0
