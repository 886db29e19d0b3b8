#!/bin/sh
# Issue 10.2: probabilistic generation with an inverted table (kpath learn
# --invert) stays within --max-size, and the budget matters: the paper's
# inputs from hell close with the shortest expansions once it is spent.
#
# Worked out by hand for S := "x" | "(" S ")" S.  The samples x, x, (x)x
# choose "x" 4 times of 5, so the inverted table gives the recursive
# alternative 80%.  A tree with m recursive expansions has 8m + 2 nodes (an
# expansion to "x": the alternation and the leaf, 2 nodes; a recursive one:
# the alternation, the sequence, "(", ")" and two references, 6 nodes; there
# are m + 1 expansions to "x") and 3m + 1 bytes.  So --max-size 30 allows
# m <= 3, at most 10 bytes; --max-size 300 allows m <= 37, at most 112 bytes.
# Before the fix, budgets were ignored: inputs of 79 bytes under 30.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'S := "x" | "(" S ")" S;\n' >"$tmp/g.ebnf"
printf 'x' >"$tmp/s1"; printf 'x' >"$tmp/s2"; printf '(x)x' >"$tmp/s3"
"$KPATH" learn --invert -o "$tmp/inv.probs" "$tmp/g.ebnf" "$tmp/s1" "$tmp/s2" "$tmp/s3" \
    2>"$tmp/err" || fail "learn: $(cat "$tmp/err")"
grep -q '80% "(" S ")" S' "$tmp/inv.probs" || fail "inverted table: $(cat "$tmp/inv.probs")"
for budget in 30:10 300:112; do
    size=${budget%:*} bytes=${budget#*:}
    "$KPATH" gen --strategy prob --probs "$tmp/inv.probs" --max-size "$size" -n 20 \
        "$tmp/g.ebnf" >"$tmp/out.$size" 2>"$tmp/err" || fail "gen --max-size $size: $(cat "$tmp/err")"
    [ "$(wc -l <"$tmp/out.$size")" -eq 20 ] || fail "--max-size $size: not 20 inputs"
    awk -v b="$bytes" 'length($0) > b { exit 1 }' "$tmp/out.$size" ||
        fail "--max-size $size: an input longer than $bytes bytes: $(cat "$tmp/out.$size")"
    # the inverted table pushes every input up to the budget: the longest
    # input reaches the bound worked out above
    awk -v b="$bytes" 'length($0) == b { found = 1 } END { exit !found }' "$tmp/out.$size" ||
        fail "--max-size $size: no input of $bytes bytes: $(cat "$tmp/out.$size")"
done
exit 0
