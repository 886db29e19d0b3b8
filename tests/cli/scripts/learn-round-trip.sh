#!/bin/sh
# kpath learn's output loads back as a grammar, and gen --probs reads the
# same probabilities from it: learning again from the same sample with the
# learned file as the grammar gives the same percentages; --invert on the fly
# gives the same inputs as inverting in the file.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sample=tests/samples/learn/arith-1.txt
"$KPATH" learn grammars/arith.ebnf "$sample" -o "$tmp/learned.ebnf" 2>/dev/null || exit 1
"$KPATH" check "$tmp/learned.ebnf" 2>/dev/null || { echo "learned grammar does not load"; exit 1; }
"$KPATH" learn "$tmp/learned.ebnf" "$sample" -o "$tmp/again.ebnf" 2>/dev/null || exit 1
grep -v '^#' "$tmp/learned.ebnf" > "$tmp/a"
grep -v '^#' "$tmp/again.ebnf" > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { echo "learning from the learned grammar changed the probabilities"; diff "$tmp/a" "$tmp/b"; exit 1; }
"$KPATH" learn --invert grammars/arith.ebnf "$sample" -o "$tmp/inverted.ebnf" 2>/dev/null || exit 1
"$KPATH" gen --strategy prob --probs "$tmp/inverted.ebnf" -n 20 --max-depth 10 grammars/arith.ebnf > "$tmp/x" 2>/dev/null
"$KPATH" gen --strategy prob --probs "$tmp/learned.ebnf" --invert -n 20 --max-depth 10 grammars/arith.ebnf > "$tmp/y" 2>/dev/null
cmp -s "$tmp/x" "$tmp/y" || { echo "inverting on the fly differs from inverting in the file"; exit 1; }
# Only -, /, unary operators and the digits 0, 4-9.
if grep -q '[*()123]' "$tmp/x"; then echo "inverted inputs use what the sample used"; exit 1; fi
exit 0
