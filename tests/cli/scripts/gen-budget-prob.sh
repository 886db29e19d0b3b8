#!/bin/sh
# The size budget holds for --strategy prob with an inverted table (issue
# 33, item 4).  learn --invert on 1*(2+3) gives Int's way out of its
# recursion (Int := Digit) weight 0; gen used to keep taking Digit Int once
# --max-size was spent, and made inputs of 545 bytes whatever the budget.
# A tree of at most N nodes spells at most N characters (each character is
# a leaf), so every input must be at most 20 bytes under --max-size 20;
# and a larger budget must allow larger inputs than a smaller one.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=grammars/arith.ebnf
printf '1*(2+3)' >"$tmp/sample.txt"
"$KPATH" learn --invert $g "$tmp/sample.txt" >"$tmp/inv.ebnf" 2>"$tmp/err" || fail "learn: $(cat "$tmp/err")"
for m in 20 60; do
    "$KPATH" gen --strategy prob --probs "$tmp/inv.ebnf" --max-size $m -n 50 -o "$tmp/o$m" $g \
        >/dev/null 2>"$tmp/err" || fail "gen --max-size $m: $(cat "$tmp/err")"
    for f in "$tmp/o$m"/*.txt; do
        n=$(wc -c <"$f")
        [ "$n" -le $m ] || fail "--max-size $m: $(basename "$f") has $n bytes"
    done
done
a=$(cat "$tmp/o20"/*.txt | wc -c) b=$(cat "$tmp/o60"/*.txt | wc -c)
[ "$a" -lt "$b" ] || fail "--max-size 20 gives $a bytes, --max-size 60 $b"
exit 0
