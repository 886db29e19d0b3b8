#!/bin/sh
# kpath target --run on the bundled subject: calc crashes (SIGSEGV) exactly
# when a unary "-" stands directly before "(" (negate_group, see
# subjects/calc.c) and nothing before it ends the run.  Learned from the
# outcomes of random inputs, the rule must require Factor -> "(" under the
# unary minus; every targeted input must contain such a unary minus (checked
# here by a regular expression on the text: a "-(" at the start or after an
# operator, "(" or another sign), and so crash unless the group exits first
# (-(5/0): division by zero).  Each row of the report must say what the
# results file says (counted here from results.jsonl); random inputs crash
# no more often than they have the construct.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
build=$(dirname "$KPATH")
calc=$build/subjects/calc
[ -x "$calc" ] || fail "no $calc (make subjects)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$KPATH" gen --strategy random -n 120 --max-depth 8 --seed 5 -o "$tmp/train" \
    grammars/arith.ebnf 2>/dev/null || fail "gen"
"$KPATH" run -q -j 2 --results "$tmp/train.jsonl" grammars/arith.ebnf "$tmp/train" \
    -- "$calc" >/dev/null 2>"$tmp/err" || fail "run: $(cat "$tmp/err")"
grep -q '"outcome":"signal:SIGSEGV"' "$tmp/train.jsonl" || fail "no training input crashed"
"$KPATH" target -n 8 --gen-depth 10 --feature signal:SIGSEGV --runs "$tmp/runs" -j 2 \
    grammars/arith.ebnf "$tmp/train.jsonl" --run -- "$calc" >"$tmp/out" 2>"$tmp/err" ||
    fail "target --run exited $?: $(cat "$tmp/err")"
grep -q 'requires   Factor_[0-9]* -> "("_[0-9]*' "$tmp/err" || fail "rule: $(cat "$tmp/err")"
! grep -q 'may not be seen' "$tmp/err" || fail "a warning about collectors, with the same ones: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/out")" = 8 ] || fail "expected 8 inputs on stdout: $(cat "$tmp/out")"
unary='(^|[-+*/(])-\('
[ "$(grep -cE "$unary" "$tmp/out")" = 8 ] || fail "an input without a unary minus before '(': $(cat "$tmp/out")"
[ "$(ls "$tmp/runs/targeted" | wc -l)" = 8 ] || fail "targeted files: $(ls "$tmp/runs/targeted")"
[ "$(ls "$tmp/runs/random" | wc -l)" = 8 ] || fail "random files: $(ls "$tmp/runs/random")"
# Each row against the results file: the records of DIR/targeted/ or
# DIR/random/ whose outcome is the crash.
row() {
    crashed=$(grep "\"input\":\"[^\"]*/$1/" "$tmp/runs/results.jsonl" | grep -c '"outcome":"signal:SIGSEGV"')
    pct=$(awk -v c="$crashed" 'BEGIN { printf "%5.1f", 100 * c / 8 }')
    if [ "$crashed" -gt 0 ]; then abs=yes; else abs=no; fi
    printf '  %-9s %4s/8    (%s%%)   %s\n' "$1" "$crashed" "$pct" "$abs" >"$tmp/row"
    grep -qxF "$(cat "$tmp/row")" "$tmp/err" || fail "$1 row, expected $(cat "$tmp/row"): $(cat "$tmp/err")"
}
row targeted
row random
# A targeted input that did not crash ended inside the group first: division
# by zero (exit 3) or overflow (exit 4); nothing else.
others=$(grep '"input":"[^"]*/targeted/' "$tmp/runs/results.jsonl" | grep -v '"outcome":"signal:SIGSEGV"' |
    grep -vc '"outcome":"exit:[34]"')
[ "$others" = 0 ] || fail "a targeted input ended otherwise: $(cat "$tmp/runs/results.jsonl")"
# No more random inputs crashed than have the construct.
n=0
for f in "$tmp/runs/random"/*.txt; do
    grep -qE "$unary" "$f" && n=$((n + 1))
done
crashed=$(grep '"input":"[^"]*/random/' "$tmp/runs/results.jsonl" | grep -c '"outcome":"signal:SIGSEGV"')
[ "$crashed" -le "$n" ] || fail "$crashed random inputs crashed, only $n have the construct"
# Runs that collect less than the results file's did: a warning saying
# what each collected and which options --run takes for it.
"$KPATH" run -q -j 2 --features-cmd 'echo always' --results "$tmp/train2.jsonl" \
    grammars/arith.ebnf "$tmp/train" -- "$calc" >/dev/null 2>"$tmp/err" || fail "run: $(cat "$tmp/err")"
"$KPATH" target -n 2 --gen-depth 10 --feature signal:SIGSEGV grammars/arith.ebnf \
    "$tmp/train2.jsonl" --run -- "$calc" >/dev/null 2>"$tmp/err" || fail "target --run: $(cat "$tmp/err")"
grep -qxF "kpath target: warning: the runs of $tmp/train2.jsonl collected outcome, cmd:echo always, these runs collect outcome: signal:SIGSEGV may not be seen as it was there (give --run the collection options kpath run had: --gcov, --lines, --node-coverage, --features-cmd)" "$tmp/err" ||
    fail "no warning about the collectors: $(cat "$tmp/err")"
# The temporary directory of a run without --runs is removed.
TMPDIR=$tmp/t; mkdir "$TMPDIR"; export TMPDIR
"$KPATH" target -n 2 --gen-depth 10 --feature signal:SIGSEGV grammars/arith.ebnf \
    "$tmp/train.jsonl" --run -- "$calc" >/dev/null 2>"$tmp/err" || fail "target --run: $(cat "$tmp/err")"
[ -z "$(ls "$TMPDIR")" ] || fail "left behind: $(ls "$TMPDIR")"
exit 0
