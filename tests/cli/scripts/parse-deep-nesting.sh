#!/bin/sh
# A sample nested 50,000 parentheses deep: parse --json and --dot, and
# coverage, walk the tree without recursion (under ASan a recursive walk
# would overflow the stack).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=50000
{ printf '%*s' $n '' | tr ' ' '('; printf 7; printf '%*s' $n '' | tr ' ' ')'; } >"$tmp/deep.txt"
g="--start Expr grammars/arith.ebnf"

# shellcheck disable=SC2086
"$KPATH" parse --json $g "$tmp/deep.txt" >"$tmp/json" || fail "parse --json: status $?"
# Every paren is a literal leaf; 7 is one more.
leaves=$(grep -c '"kind": "lit"' "$tmp/json")
[ "$leaves" = $((2 * n + 1)) ] || fail "$leaves literal leaves, expected $((2 * n + 1))"
tail -n 1 "$tmp/json" | grep -qx ']}' || fail "JSON not closed"

# shellcheck disable=SC2086
"$KPATH" parse --dot --symbolic $g "$tmp/deep.txt" >"$tmp/dot" || fail "parse --dot: status $?"
tail -n 1 "$tmp/dot" | grep -qx '}' || fail "DOT not closed"

# shellcheck disable=SC2086
"$KPATH" coverage -k 3 $g "$tmp/deep.txt" >"$tmp/out" || fail "coverage: status $?"
grep -q '^total (1 file): k=1 8/35 ' "$tmp/out" || fail "coverage: $(cat "$tmp/out")"
exit 0
