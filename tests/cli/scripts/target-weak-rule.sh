#!/bin/sh
# kpath target on a rule that rests on one input (tests/explain/json/README:
# only -0.25 crashes, the rule is "contains - int frac? exp?", 1 input,
# precision 1.00) targets it all the same (a crash seen once is what one
# wants more inputs for) but says it is weak, with the numbers, on stderr;
# with --min-reaching 1 the rule is not weak and nothing is said.  QA
# finding: target used a rule of precision 0.03 without a word.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
args="-k 1 --no-balance -n 3 --feature signal:SIGSEGV grammars/json.ebnf tests/explain/json/one-crash.jsonl"
# shellcheck disable=SC2086
"$KPATH" target $args >"$tmp/out" 2>"$tmp/err" || fail "target exited $?: $(cat "$tmp/err")"
cat >"$tmp/want" <<'EOT'
signal:SIGSEGV: 1 rule from a tree of 3 nodes (gini, max depth 5, every input, seed 1)
  accuracy on the training inputs 1.00 (too few inputs to cross-validate; every input, depth 5) against 0.83 for always answering "not reached" (majority baseline)
rule 1: contains  - int frac? exp?   (1 input, precision 1.00, weak)
  warning: a weak rule: only 1 input reaching signal:SIGSEGV matches it (fewer than --min-reaching 3); its inputs may not reach signal:SIGSEGV
  requires   "-"_42
rule 1: 3 inputs
EOT
diff "$tmp/want" "$tmp/err" || fail "stderr differs"
# the inputs satisfy the rule: each is a negative number
[ "$(wc -l <"$tmp/out")" = 3 ] || fail "not 3 inputs: $(cat "$tmp/out")"
[ "$(grep -c '^-' "$tmp/out")" = 3 ] || fail "an input without -: $(cat "$tmp/out")"
# shellcheck disable=SC2086
"$KPATH" target --min-reaching 1 $args >"$tmp/out" 2>"$tmp/err" || fail "target --min-reaching 1 exited $?"
grep -q 'weak' "$tmp/err" && fail "--min-reaching 1: still weak: $(cat "$tmp/err")"
grep -qxF 'rule 1: contains  - int frac? exp?   (1 input, precision 1.00)' "$tmp/err" ||
    fail "--min-reaching 1: $(cat "$tmp/err")"
exit 0
