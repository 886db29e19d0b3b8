#!/bin/sh
# --uncovered: with grammars/expr.ebnf, x+42 leaves 113 of the 125 2-paths
# uncovered; the list is on stdout, one per line as `kpath paths` prints them,
# the report on stderr; and the 2-paths it does not list are exactly the
# twelve of the k-path paper's example.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

"$KPATH" coverage -k 2 --uncovered grammars/expr.ebnf tests/samples/expr/valid/add.txt \
    >"$tmp/uncovered" 2>"$tmp/report" || fail "exit status $?"
[ "$(wc -l <"$tmp/uncovered" | tr -d ' ')" = 113 ] ||
    fail "$(wc -l <"$tmp/uncovered") uncovered 2-paths, expected 113"
grep -qxF 'total (1 file): k=1 12/39 (30.7%), k=2 12/125 (9.6%)' "$tmp/report" ||
    fail "report on stderr: $(cat "$tmp/report")"

"$KPATH" paths -k 2 grammars/expr.ebnf >"$tmp/all" || fail "kpath paths failed"
sort "$tmp/all" >"$tmp/all.sorted"
sort "$tmp/uncovered" >"$tmp/uncovered.sorted"
[ "$(comm -13 "$tmp/all.sorted" "$tmp/uncovered.sorted" | wc -l)" = 0 ] ||
    fail "lines that are not 2-paths: $(comm -13 "$tmp/all.sorted" "$tmp/uncovered.sorted")"
comm -23 "$tmp/all.sorted" "$tmp/uncovered.sorted" >"$tmp/covered"
cat >"$tmp/want" <<'PATHS'
AddExpr_0 -> AddExpr_5
AddExpr_5 -> MultExpr_2
MultExpr_2 -> UnaryExpr_8
UnaryExpr_8 -> Identifier_16
Identifier_16 -> "x"_39
AddExpr_0 -> "+"_10
AddExpr_0 -> MultExpr_7
MultExpr_7 -> UnaryExpr_8
UnaryExpr_8 -> DecDigits_22
DecDigits_22 -> DecDigit_42
DecDigit_42 -> "4"_48
DecDigit_42 -> "2"_46
PATHS
sort "$tmp/want" >"$tmp/want.sorted"
cmp -s "$tmp/covered" "$tmp/want.sorted" ||
    fail "covered 2-paths differ from the paper's twelve: $(diff "$tmp/want.sorted" "$tmp/covered")"

# The uncovered list keeps kpath paths' order (lexicographic by ids).
grep -vxF -f "$tmp/covered" "$tmp/all" >"$tmp/all-but-covered"
cmp -s "$tmp/all-but-covered" "$tmp/uncovered" || fail "uncovered list is not in kpath paths order"

# With every 2-path covered, the list is empty (status 0).
"$KPATH" coverage -k 1 --uncovered grammars/expr.ebnf tests/samples/expr/valid >"$tmp/none" 2>/dev/null ||
    fail "exit status $? with full 1-path coverage"
[ ! -s "$tmp/none" ] || fail "uncovered 1-paths listed although all are covered: $(cat "$tmp/none")"
exit 0
