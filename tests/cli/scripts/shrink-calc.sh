#!/bin/sh
# kpath shrink on the bundled subject (issue 33, item 2).  The smallest
# failing inputs of build/subjects/calc, worked out by hand from
# subjects/calc.c and grammars/arith.ebnf:
#  - signal:SIGSEGV: negate_group, a unary "-" directly before a complete
#    group: Expr -> Term -> Factor -> "-" Factor -> "-" "(" Expr ")", the
#    Expr inside one digit (Term -> Factor -> Int -> Digit): "-(D)", 4
#    bytes; nothing shorter holds "-(", an Expr and ")".
#  - exit:3: division_by_zero, Term -> Term "/" Factor with both sides one
#    digit and the divisor 0: "D/0", 3 bytes (a division needs "/" and an
#    operand on each side).
#  - exit:4: overflow: a number above 2^63 - 1 = 9223372036854775807 needs
#    19 digits (the largest 18-digit number is below it); a product needs
#    19 digits on its two sides and the "*": 19 bytes at least.  From a
#    number of nines, the tree edits (Int := Digit Int, a digit dropped by
#    hoisting the inner Int) leave 19 nines.
#  - fn:divide (--keep with --gcov): any division: "0/0", 3 bytes.
# Each result is checked against those forms, its run against calc, and
# the runs reported against the results file of --runs.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
build=$(dirname "$KPATH")
calc=$build/subjects/calc
[ -x "$calc" ] || fail "no $calc (make subjects)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=grammars/arith.ebnf

# shrink NAME TEXT REGEX [OPTIONS...]: TEXT shrinks to a text matching REGEX.
shrink() {
    name=$1 text=$2 want=$3
    shift 3
    printf '%s' "$text" >"$tmp/$name.in"
    "$KPATH" shrink --runs "$tmp/$name.runs" "$@" $g "$tmp/$name.in" -- "$calc" \
        >"$tmp/$name.out" 2>"$tmp/$name.err" || fail "$name: $(cat "$tmp/$name.err")"
    grep -Eqx -- "$want" "$tmp/$name.out" || fail "$name: '$text' shrank to '$(cat "$tmp/$name.out")', not $want"
    # The runs reported are the records of the results file, none twice.
    runs=$(sed -n 's/.* \([0-9]*\) runs (INPUT.s included).*/\1/p' "$tmp/$name.err")
    recs=$(grep -c '"input_sha256"' "$tmp/$name.runs/results.jsonl")
    [ "$runs" = "$recs" ] || fail "$name: $runs runs reported, $recs recorded"
    distinct=$(grep -o '"input_sha256": *"[0-9a-f]*"' "$tmp/$name.runs/results.jsonl" | sort -u | wc -l)
    [ "$distinct" = "$recs" ] || fail "$name: an input was run twice ($distinct distinct of $recs)"
}

shrink segv '12+3*-(4+5)/6' '-\([0-9]\)'
shrink segv2 '((1))--(22*3)+8*9' '-\([0-9]\)'
shrink segv3 '1+2+3+4+5+6+7+8+9+-(0+1+2+3+4+5)*(1+2)-3' '-\([0-9]\)'
grep -q 'keeping signal:SIGSEGV' "$tmp/segv.err" || fail "segv: $(cat "$tmp/segv.err")"
grep -q 'over the derivation tree' "$tmp/segv.err" || fail "segv: $(cat "$tmp/segv.err")"
"$calc" <"$tmp/segv.out" >/dev/null 2>&1
[ $? -gt 128 ] || fail "segv: the result does not crash calc"
shrink div '(5+3)/(2-2)+7*4' '[0-9]/0'
# The digits too: the smallest subtree of a node takes the first of equal
# alternatives, and Digit's first is "0"; so the Expr in the group is "0",
# and both sides of the division "0".  The summary line in full, its runs
# those of the results file (as counted by shrink above).
[ "$(cat "$tmp/segv.out")" = '-(0)' ] || fail "segv: $(cat "$tmp/segv.out"), not -(0)"
[ "$(cat "$tmp/div.out")" = '0/0' ] || fail "div: $(cat "$tmp/div.out"), not 0/0"
runs=$(grep -c '"input_sha256"' "$tmp/segv.runs/results.jsonl")
grep -Eqx "kpath shrink: 13 -> 4 bytes, keeping signal:SIGSEGV; $runs runs \(INPUT's included\), [0-9]+ answers from the cache; over the derivation tree" "$tmp/segv.err" ||
    fail "segv: the summary: $(cat "$tmp/segv.err")"
grep -q 'keeping exit:3' "$tmp/div.err" || fail "div: $(cat "$tmp/div.err")"
shrink overflow '(1+99999999999999999999999)*2' '9{19}'
shrink divide '(1+2)*3/4-5' '[0-9]/[0-9]' --keep fn:divide --gcov "$build/subjects"
[ "$(wc -c <"$tmp/divide.out")" = 3 ] || fail "divide: $(cat "$tmp/divide.out")"

# Not parsed by the grammar (a newline at the end, which calc ignores):
# ddmin first, then the tree.
shrink newline "$(printf '%s\n ' '7*-(12+3)')" '-\([0-9]\)'
grep -q 'ddmin on characters, then the derivation tree' "$tmp/newline.err" ||
    fail "newline: $(cat "$tmp/newline.err")"
# --chars: ddmin only; the result is 1-minimal over characters.
shrink chars '12+3*-(4+5)/6' '.*-\([0-9]+\)' --chars
grep -q 'ddmin on characters (GRAMMAR' "$tmp/chars.err" || fail "chars: $(cat "$tmp/chars.err")"

# -o FILE, and the refusals: an input that does not fail, a behaviour the
# input does not show.
printf '1+2' >"$tmp/ok.in"
"$KPATH" shrink $g "$tmp/ok.in" -- "$calc" >"$tmp/out" 2>"$tmp/err"
[ $? = 1 ] || fail "a passing input: status not 1"
grep -q 'exits 0 on it' "$tmp/err" || fail "a passing input: $(cat "$tmp/err")"
"$KPATH" shrink --keep signal:SIGSEGV $g "$tmp/div.in" -- "$calc" >"$tmp/out" 2>"$tmp/err"
[ $? = 1 ] || fail "--keep not shown: status not 1"
grep -q 'does not show the behaviour to keep (its outcome: exit:3)' "$tmp/err" || fail "--keep: $(cat "$tmp/err")"
"$KPATH" shrink -o "$tmp/result" $g "$tmp/segv.in" -- "$calc" >"$tmp/out" 2>"$tmp/err" || fail "-o: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "-o: something on stdout"
grep -Eqx -- '-\([0-9]\)' "$tmp/result" || fail "-o: $(cat "$tmp/result")"
exit 0
