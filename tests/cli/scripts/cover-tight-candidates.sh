#!/bin/sh
# Issue 10.3: cover's last pass also offers, for each greedy input, a
# greedy run targeting only the k-paths no other greedy input holds (tight
# candidates): on tests/grammars/ok/tight-candidates.ebnf with -k 2 the
# default suite keeps greedy's 4 inputs but has 16 bytes instead of 38 (the
# grammar's comment works the inputs out).  Coverage is checked by parsing
# the inputs back (kpath coverage), not from the generator's bookkeeping.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=tests/grammars/ok/tight-candidates.ebnf
"$KPATH" cover -k 2 -o "$tmp/suite" "$g" >/dev/null 2>"$tmp/err" || fail "cover: $(cat "$tmp/err")"
grep -q '(greedy alone: 4 inputs, 38 bytes)' "$tmp/err" || fail "greedy: $(cat "$tmp/err")"
n=$(ls "$tmp"/suite/*.txt | wc -l | tr -d ' ')
[ "$n" = 4 ] || fail "cover -k 2: $n inputs, expected 4"
bytes=$(cat "$tmp"/suite/*.txt | wc -c | tr -d ' ')
[ "$bytes" = 16 ] || fail "cover -k 2: $bytes bytes in total, expected 16: $(cat "$tmp"/suite/*.txt)"
grep -qx 'cccccc' "$tmp"/suite/*.txt || fail "no tight input cccccc: $(cat "$tmp"/suite/*.txt)"
"$KPATH" coverage -k 2 "$g" "$tmp/suite" >"$tmp/cov" 2>&1 || fail "coverage: $(cat "$tmp/cov")"
grep -q '^total (4 files): k=1 5/5 (100.0%), k=2 12/12 (100.0%)' "$tmp/cov" || fail "coverage: $(cat "$tmp/cov")"
exit 0
