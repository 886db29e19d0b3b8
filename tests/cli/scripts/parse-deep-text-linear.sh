#!/bin/sh
# kpath parse's text output stays linear on deep trees: two spaces per level
# down to level 32, then the same 64 spaces and "@LEVEL ".  The expected tree
# of n nested parentheses in arith.ebnf (--start Expr --symbolic) is worked
# out from the grammar: nesting i (from 0) puts Term_1 at level 1+3i,
# Factor_11 at 2+3i, and "("_30, Expr_31 and, after the inner part, ")"_32
# at 3+3i; the innermost Term_1 Factor_11 Int_21 Digit_34 "7"_45 follow.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g="--start Expr grammars/arith.ebnf"
nested() { printf '%*s' "$1" '' | tr ' ' '('; printf 7; printf '%*s' "$1" '' | tr ' ' ')'; }

# The tree by the formula above, indented by the rule under test.
expected() {
    awk -v n="$1" '
    function line(level, label,   i, s) {
        s = ""
        for (i = 0; i < level && i < 32; i++) s = s "  "
        if (level > 32) s = s "@" level " "
        print s label
    }
    BEGIN {
        line(0, "|_0")
        for (i = 0; i < n; i++) {
            line(1 + 3 * i, "Term_1"); line(2 + 3 * i, "Factor_11")
            line(3 + 3 * i, "\"(\"_30"); line(3 + 3 * i, "Expr_31")
        }
        b = 1 + 3 * n
        line(b, "Term_1"); line(b + 1, "Factor_11"); line(b + 2, "Int_21")
        line(b + 3, "Digit_34"); line(b + 4, "\"7\"_45")
        for (i = n - 1; i >= 0; i--) line(3 + 3 * i, "\")\"_32")
    }'
}

nested 12 >"$tmp/12.txt"
# shellcheck disable=SC2086
"$KPATH" parse --symbolic $g "$tmp/12.txt" >"$tmp/out" || fail "parse: status $?"
expected 12 >"$tmp/want"
diff "$tmp/want" "$tmp/out" >"$tmp/diff" || { head -20 "$tmp/diff"; fail "tree of 12 nested parentheses"; }
grep -q '^ \{64\}@41 "7"_45$' "$tmp/out" || fail "no '@41' line for the innermost literal"

# 3,000 levels of parentheses: 15,000 lines, none longer than 64 spaces, a
# level number and a label; full indentation would print 130 MB.
n=3000
nested $n >"$tmp/deep.txt"
# shellcheck disable=SC2086
"$KPATH" parse --symbolic $g "$tmp/deep.txt" >"$tmp/out" || fail "deep parse: status $?"
lines=$(wc -l <"$tmp/out" | tr -d ' ')
[ "$lines" = $((5 * n + 6)) ] || fail "$lines lines, expected $((5 * n + 6))"
longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$tmp/out")
[ "$longest" -le 90 ] || fail "a line of $longest characters"
bytes=$(wc -c <"$tmp/out" | tr -d ' ')
[ "$bytes" -le $((90 * lines)) ] || fail "$bytes bytes for $lines lines"
# Without --symbolic too.
# shellcheck disable=SC2086
"$KPATH" parse $g "$tmp/deep.txt" >"$tmp/out" || fail "deep parse: status $?"
longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$tmp/out")
[ "$longest" -le 90 ] || fail "a line of $longest characters without --symbolic"
exit 0
