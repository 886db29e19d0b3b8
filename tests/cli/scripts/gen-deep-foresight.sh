#!/bin/sh
# Deep foresight (fuzzingbook's GrammarCoverageFuzzer) on
# tests/grammars/ok/foresight.ebnf, start := X X X.  The first two X take
# both alternatives of X; at the third, neither X -> P nor X -> Q is new, one
# reference further P has 1 unused alternative and Q 8 (of 9, one digit being
# used): Q, for every seed, so the third character is a digit.
# Expansion coverage by hand: start's one expansion, X -> P and X -> Q, one
# of P's 2, two distinct digits of Q's 9 (the second Q takes an unused one):
# 1 + 2 + 1 + 2 = 6 of 1 + 2 + 2 + 9 = 14, 42.8% rounded down.  Full 1-path
# coverage uses every literal, so every expansion: 14/14.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
g=tests/grammars/ok/foresight.ebnf
seed=1
while [ $seed -le 30 ]; do
    "$KPATH" gen --strategy coverage -n 1 --seed $seed $g >"$tmp/out" 2>"$tmp/err" || exit 1
    grep -q '^..[1-9]$' "$tmp/out" || { echo "seed $seed: $(cat "$tmp/out")"; exit 1; }
    grep -q '^expansion coverage: 6/14 (42.8%)$' "$tmp/err" || { cat "$tmp/err"; exit 1; }
    seed=$((seed + 1))
done
"$KPATH" cover -k 1 $g >/dev/null 2>"$tmp/err" || exit 1
grep -q '^expansion coverage: 14/14 (100.0%)$' "$tmp/err" || { cat "$tmp/err"; exit 1; }
"$KPATH" cover -k 1 --json $g 2>/dev/null | grep -q '"expansions": {"covered": 14, "total": 14}' ||
    { echo "no expansions in --json"; exit 1; }
exit 0
