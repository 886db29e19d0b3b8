#!/bin/sh
# cover --pin: every input reaches the pinned context (a parenthesized sum as
# the right operand of *, / or %), and the summary reports full coverage in
# context of the 38 1-paths and 120 2-paths under the pin (all but those
# starting at the root reference AddExpr_0: 39 - 1 and 125 - 5).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$KPATH" cover -k 2 --pin 'UnaryExpr_15 AddExpr_36' grammars/expr.ebnf >"$tmp/out" 2>"$tmp/err" || exit 1
grep -q '^  k=1: 38/38 (100.0%)$' "$tmp/err" || { cat "$tmp/err"; exit 1; }
grep -q '^  k=2: 120/120 (100.0%)$' "$tmp/err" || { cat "$tmp/err"; exit 1; }
grep -q '^pins: UnaryExpr_15 AddExpr_36 ' "$tmp/err" || exit 1
if grep -v -e '[*/%](' "$tmp/out" | grep -q .; then
    echo "an input does not reach the pinned context:"; grep -v -e '[*/%](' "$tmp/out" | head -3; exit 1
fi
exit 0
