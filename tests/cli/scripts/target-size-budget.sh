#!/bin/sh
# Issue 32, item 5: target --run compares like with like.  The random inputs
# get the targeted inputs' size budget (the tree nodes of the largest one),
# and --max-size N bounds the targeted inputs' trees.  In arith every
# character is a leaf of the tree, so an input's bytes are at most its tree
# nodes: with --max-size 40 every targeted input has at most 40 bytes, the
# budget the report names is at most 40, and every random input that ran
# has at most that many bytes.  (Before, random inputs were 10-50 times
# larger than targeted ones.)
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
"$KPATH" target -n 8 --gen-depth 10 --max-size 40 --feature signal:SIGSEGV --runs "$tmp/runs" \
    -j 2 grammars/arith.ebnf "$tmp/train.jsonl" --run -- "$calc" >"$tmp/out" 2>"$tmp/err" ||
    fail "target --run exited $?: $(cat "$tmp/err")"
budget=$(sed -n 's/.*size budget \([0-9]*\) tree nodes, the largest targeted input.s.*/\1/p' "$tmp/err")
[ -n "$budget" ] || fail "no size budget in the report: $(cat "$tmp/err")"
[ "$budget" -le 40 ] || fail "budget $budget above --max-size 40"
for f in "$tmp/runs/targeted"/*; do
    [ "$(wc -c <"$f")" -le 40 ] || fail "targeted input of $(wc -c <"$f") bytes: $(cat "$f")"
done
for f in "$tmp/runs/random"/*; do
    [ "$(wc -c <"$f")" -le "$budget" ] || fail "random input of $(wc -c <"$f") bytes, budget $budget: $(cat "$f")"
done
[ "$(ls "$tmp/runs/random" | wc -l)" = 8 ] || fail "random files: $(ls "$tmp/runs/random")"
"$KPATH" target --max-size 0 --feature x grammars/arith.ebnf "$tmp/train.jsonl" 2>"$tmp/err"
[ $? -eq 2 ] || fail "--max-size 0 should be refused"
exit 0
