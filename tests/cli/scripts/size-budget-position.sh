#!/bin/sh
# Issue 38 item 9: a grammar whose smallest input is over the size budget is
# refused by cover at FILE:LINE:COL of the rule to blame, and check (which
# accepts it: the grammar is valid) warns at the same place.  The smallest
# S has 1 + 4*(1 + 4*(1 + 4*(1 + 3*1)... : A has 89 tree nodes, S 361.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'S := A A A A;\nA := B B B B;\nB := C C C C;\nC := "x" "y" "z";\n' >"$tmp/big.ebnf"
"$KPATH" cover --max-size 50 "$tmp/big.ebnf" -o "$tmp/out" 2>"$tmp/err"
[ $? = 2 ] || fail "cover: exit status not 2"
[ ! -e "$tmp/out" ] || fail "cover wrote something"
grep -q "^$tmp/big.ebnf:2:1: error: rule A: its smallest derivation has 89 tree nodes, more than the size budget (--max-size 50); the smallest input needs --max-size 361\$" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "cover: no FILE:LINE:COL"; }
# Over the default budget (2000): 5 levels of 4 make 1 + 4 + ... > 2000.
printf 'S := A A A A;\nA := B B B B;\nB := C C C C;\nC := D D D D;\nD := E E E E;\nE := "x" "y";\n' >"$tmp/huge.ebnf"
"$KPATH" check "$tmp/huge.ebnf" 2>"$tmp/err" || fail "check: the grammar is valid"
grep -q "^$tmp/huge.ebnf:[0-9]*:1: warning: rule [A-ES]: its smallest derivation has" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "check does not warn"; }
exit 0
