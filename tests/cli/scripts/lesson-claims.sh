#!/bin/sh
# The lessons' claims (lessons/*.lesson), checked against kpath paths,
# pattern, coverage and dup rather than against the explorer's own screens
# (issue 36: the fsm lesson said a 2-path could start at a token, which none
# of fsm.ebnf's does).  The explorer's side is tests/tui/cases/lessons.check.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
count() { "$KPATH" paths --count "$@" 2>/dev/null; }
paths() { "$KPATH" paths "$@" 2>/dev/null; }

# paper: 39 1-paths, 125 2-paths; x+42 covers 12 of the 125;
# AddExpr_0 -> "+"_10 is AddExpr [+] MultExpr.
[ "$(count -k 1 grammars/expr.ebnf)" = 39 ] || fail "paper: 39 1-paths"
[ "$(count -k 2 grammars/expr.ebnf)" = 125 ] || fail "paper: 125 2-paths"
"$KPATH" coverage grammars/expr.ebnf lessons/samples/x-plus-42.txt 2>&1 |
    grep -q '^total (1 file): k=1 12/39 (30.7%), k=2 12/125 (9.6%)$' || fail "paper: x+42 covers 12/125"
[ "$("$KPATH" pattern grammars/expr.ebnf 'AddExpr_0 "+"_10')" = 'AddExpr [+] MultExpr' ] ||
    fail "paper: the pattern of AddExpr_0 -> \"+\"_10"
grep -q 'AddExpr_0 → "+"_10 is AddExpr \[+\] MultExpr' lessons/paper.lesson || fail "paper: the text"

# digits: ten rules, a 1-path per digit and per rule's reference.
[ "$(count -k 1 grammars/digits.ebnf)" = 20 ] || fail "digits: 20 1-paths"
[ "$(paths -k 1 grammars/digits.ebnf | grep -c '^"[0-9]"_')" = 10 ] || fail "digits: ten digits"

# fsm: 14 1-paths, the 7 tokens and 7 reference nodes of states (q1 at 2
# places, q2 at 3, q3 at 2); 31 2-paths, none starting at a token, each
# from a state's reference node; q2_7 -> "auth"_12 and q2_13 -> "auth"_12.
paths -k 1 grammars/fsm.ebnf >"$tmp/fsm1"
[ "$(wc -l <"$tmp/fsm1" | tr -d ' ')" = 14 ] || fail "fsm: 14 1-paths"
[ "$(grep -c '^"' "$tmp/fsm1")" = 7 ] || fail "fsm: 7 tokens"
[ "$(grep -c '^q1_' "$tmp/fsm1") $(grep -c '^q2_' "$tmp/fsm1") $(grep -c '^q3_' "$tmp/fsm1")" = "2 3 2" ] ||
    fail "fsm: q1 at 2 places, q2 at 3, q3 at 2"
paths -k 2 grammars/fsm.ebnf >"$tmp/fsm2"
[ "$(wc -l <"$tmp/fsm2" | tr -d ' ')" = 31 ] || fail "fsm: 31 2-paths"
! grep -q '^"' "$tmp/fsm2" || fail "fsm: a 2-path starts at a token"
[ "$(grep -c '^q[123]_[0-9]* -> ' "$tmp/fsm2")" = 31 ] || fail "fsm: every 2-path starts at a state"
grep -qxF 'q2_7 -> "auth"_12' "$tmp/fsm2" && grep -qxF 'q2_13 -> "auth"_12' "$tmp/fsm2" ||
    fail "fsm: q2_7 -> \"auth\"_12 and q2_13 -> \"auth\"_12"
grep -q 'token with the state' lessons/fsm.lesson && fail "fsm: the old claim is back"

# config: 3 OSes, 2 processors, 4 browsers; 16 1-paths, 27 2-paths, and
# the 3-paths from an OS's processor through a browser to its value are
# 3 x 2 x 4.
[ "$(count -k 1 grammars/config.ebnf)" = 16 ] || fail "config: 16 1-paths"
[ "$(count -k 2 grammars/config.ebnf)" = 27 ] || fail "config: 27 2-paths"
[ "$(paths -k 3 grammars/config.ebnf | grep -c '^processor_[0-9]* -> browser_[0-9]* -> "')" = 24 ] ||
    fail "config: 24 combinations"

# dup: one node per digit; :dup <factor> 4 makes <integer-1>, <integer-2>
# and <digit-1> to <digit-4>, and a "1" node in each copy of <digit>.
[ "$(paths -k 1 lessons/samples/numbers.ebnf | grep -c '^"1"_')" = 1 ] || fail "dup: one \"1\""
"$KPATH" dup -o "$tmp/dup.ebnf" lessons/samples/numbers.ebnf '<factor>' 4 2>/dev/null ||
    fail "dup: kpath dup"
for r in '<integer-1>' '<integer-2>' '<digit-1>' '<digit-2>' '<digit-3>' '<digit-4>'; do
    grep -q "^$r " "$tmp/dup.ebnf" || fail "dup: no rule $r"
done
[ "$(paths -k 1 "$tmp/dup.ebnf" | grep -c '^"1"_')" = 5 ] || fail "dup: a \"1\" per copy"

# probs: the sample 1*(2+3) chooses Expr -> Term 2 times and Expr "+" Term
# once, Term -> Factor 3 times and Term "*" Factor once, Factor -> Int 3
# times and "(" Expr ")" once, Int -> Digit 3 times (worked out by hand).
# Inverted, all the probability goes to what it never chose, and each of
# those alternatives refers back to its own rule (Expr "-" Term,
# Term "/" Factor, the two signs, Digit Int): so no input ends before the
# depth limit closes it off, as the lesson says.
"$KPATH" learn --invert grammars/arith.ebnf lessons/samples/one-times-two-plus-three.txt \
    >"$tmp/inverted" 2>/dev/null || fail "probs: kpath learn --invert"
for want in 'Expr := 0% Term | 0% Expr "+" Term | 100% Expr "-" Term;' \
    'Term := 0% Factor | 0% Term "*" Factor | 100% Term "/" Factor;' \
    'Factor := 0% Int | 50% "+" Factor | 50% "-" Factor | 0% "(" Expr ")";' \
    'Int := 100% Digit Int | 0% Digit;'; do
    grep -qxF "$want" "$tmp/inverted" || fail "probs: not inverted to: $want"
done
grep -q 'recursive in every rule' lessons/probs.lesson &&
    grep -q 'Expr "-" Term, Term "/" Factor, a sign, Digit Int' lessons/probs.lesson ||
    fail "probs: the lesson no longer says why its inputs run to the depth limit"
exit 0
