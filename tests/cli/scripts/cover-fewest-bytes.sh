#!/bin/sh
# Issue 10.4: `kpath cover` by default makes the fewest inputs, then the
# fewest bytes.  On tests/grammars/ok/fewest-bytes.ebnf the minimum, worked
# out by hand in the grammar's comment, is 2 inputs of 8 bytes in total with
# -k 1 (the greedy close-off alone made 2 inputs of 9 bytes: "aahhc", "aaaa").
# Coverage is checked by parsing the inputs back (kpath coverage), not from
# the generator's bookkeeping.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=tests/grammars/ok/fewest-bytes.ebnf
"$KPATH" cover -k 1 -o "$tmp/suite" "$g" >/dev/null 2>"$tmp/err" || fail "cover: $(cat "$tmp/err")"
n=$(ls "$tmp"/suite/*.txt | wc -l | tr -d ' ')
[ "$n" = 2 ] || fail "cover -k 1: $n inputs, expected 2"
bytes=$(cat "$tmp"/suite/*.txt | wc -c | tr -d ' ')
[ "$bytes" = 8 ] || fail "cover -k 1: $bytes bytes in total, expected 8: $(cat "$tmp"/suite/*.txt)"
"$KPATH" coverage -k 1 "$g" "$tmp/suite" >"$tmp/cov" 2>&1 || fail "coverage: $(cat "$tmp/cov")"
grep -q '^total (2 files): k=1 6/6 (100.0%)' "$tmp/cov" || fail "coverage: $(cat "$tmp/cov")"
grep -q '^suite: fewest inputs, then bytes, none more than greedy' "$tmp/err" || fail "no suite line: $(cat "$tmp/err")"
# --keep-redundant keeps the suite as made: no pass, no suite line.
"$KPATH" cover -k 1 --keep-redundant "$g" >/dev/null 2>"$tmp/err" || fail "cover: $(cat "$tmp/err")"
grep -q '^suite:' "$tmp/err" && fail "--keep-redundant ran the pass: $(cat "$tmp/err")"
exit 0
