#!/bin/sh
# gcov features of the bundled subject (subjects/calc.c) equal what its
# source says each input must execute, worked out by hand from the source:
# every input runs main, parse_expr, parse_term and parse_factor; a number
# runs parse_number; binary + add, * multiply, / divide; unary - negate; a
# group parse_group; + and * together distributive_rule; 1/0 division_by_zero
# (exit 3); "1+" reaches syntax_error (exit 2) after parse_number of the 1,
# never add; "-(1)" crashes in negate_group before writing any counter, so
# only its outcome is recorded.  With -j 2 each run sees only its own
# counters.  With --lines, "2*3" runs line 200 (main's printf of the value)
# and never line 202 (the call of distributive_rule).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
build=$(dirname "$KPATH")
calc=$build/subjects/calc
[ -x "$calc" ] || fail "no $calc (make subjects)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/in"
n=0
for e in '1+2' '2*3' '1+2*3' '-4' '(5)' '1/0' '1+' '-(1)' '8/2'; do
    n=$((n + 1))
    printf '%s' "$e" >"$tmp/in/$n.txt"
done
"$KPATH" run -q -j 2 --gcov "$build/subjects" --results "$tmp/r.jsonl" --start Expr \
    grammars/arith.ebnf "$tmp/in" -- "$calc" >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "exit status $?"; }
features() { grep -F "\"input\":\"$tmp/in/$1.txt\"" "$tmp/r.jsonl" | sed 's/.*"features":\[\(.*\)\]}$/\1/' | tr -d '"'; }
base=fn:main,fn:parse_expr,fn:parse_factor
check() {
    got=$(features "$1")
    [ "$got" = "$2" ] || fail "input $1: features $got, expected $2"
}
check 1 "exit:0,fn:add,fn:main,fn:parse_expr,fn:parse_factor,fn:parse_number,fn:parse_term"
check 2 "exit:0,fn:main,fn:multiply,fn:parse_expr,fn:parse_factor,fn:parse_number,fn:parse_term"
check 3 "exit:0,fn:add,fn:distributive_rule,fn:main,fn:multiply,fn:parse_expr,fn:parse_factor,fn:parse_number,fn:parse_term"
check 4 "exit:0,fn:main,fn:negate,fn:parse_expr,fn:parse_factor,fn:parse_number,fn:parse_term"
check 5 "exit:0,fn:main,fn:parse_expr,fn:parse_factor,fn:parse_group,fn:parse_number,fn:parse_term"
check 6 "exit:3,fn:divide,fn:division_by_zero,fn:main,fn:parse_expr,fn:parse_factor,fn:parse_number,fn:parse_term"
check 7 "exit:2,fn:main,fn:parse_expr,fn:parse_factor,fn:parse_number,fn:parse_term,fn:syntax_error"
check 8 "signal:SIGSEGV"
check 9 "exit:0,fn:divide,fn:main,fn:parse_expr,fn:parse_factor,fn:parse_number,fn:parse_term"
grep -qF '"collect":["outcome","gcov"]' "$tmp/r.jsonl" || fail "header does not name gcov"

# Lines: main's printf of the value runs, the call of distributive_rule not.
[ "$(sed -n 200p subjects/calc.c)" = '    printf("%lld\n", v);' ] || fail "calc.c line 200 moved"
[ "$(sed -n 202p subjects/calc.c)" = '        distributive_rule(v);' ] || fail "calc.c line 202 moved"
"$KPATH" run -q --gcov "$build/subjects" --lines --results "$tmp/l.jsonl" --start Expr \
    grammars/arith.ebnf "$tmp/in/2.txt" -- "$calc" >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "--lines: exit status $?"; }
grep -qF '"line:subjects/calc.c:200"' "$tmp/l.jsonl" || fail "--lines: no line 200"
grep -qF '"line:subjects/calc.c:202"' "$tmp/l.jsonl" && fail "--lines: line 202 ran"
grep -qF '"fn:multiply"' "$tmp/l.jsonl" || fail "--lines: no functions"
grep -qF '"collect":["outcome","gcov-lines"]' "$tmp/l.jsonl" || fail "header does not say gcov-lines"

# A build directory without .gcno files is refused at once.
mkdir "$tmp/empty"
"$KPATH" run --gcov "$tmp/empty" --results "$tmp/e.jsonl" --start Expr grammars/arith.ebnf \
    "$tmp/in" -- "$calc" >/dev/null 2>"$tmp/err"
status=$?
[ "$status" = 2 ] || fail "empty build dir: exit status $status"
grep -qxF "$tmp/empty: error: no .gcno file below it: build the program with --coverage" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "empty build dir: message"; }
exit 0
