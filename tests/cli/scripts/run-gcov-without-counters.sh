#!/bin/sh
# --gcov names a directory with .gcno files, but the program run is not the
# one built there (here: cat), so no run writes gcov counters.  kpath says so
# instead of reporting "features reached: 1" silently, and each input's line
# counts the features besides its outcome: "0:", never a count with no names
# after it.  With calc itself (subjects/calc.c) "1+2" runs main, parse_expr,
# parse_term, parse_factor, parse_number and add (worked out from the source,
# as in run-gcov-calc.sh): "6:" and those six names, and no warning.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
build=$(dirname "$KPATH")
calc=$build/subjects/calc
[ -x "$calc" ] || fail "no $calc (make subjects)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/in" "$tmp/gcno"
printf '1+2' >"$tmp/in/a.txt"
cp "$build/subjects/calc.gcno" "$tmp/gcno/"
"$KPATH" run --gcov "$tmp/gcno" --results "$tmp/r1.jsonl" --start Expr \
    grammars/arith.ebnf "$tmp/in" -- cat >"$tmp/out" 2>"$tmp/err" ||
    fail "cat: exit status $?: $(cat "$tmp/err")"
grep -qF "warning: no run reached a function in gcov's counters under $tmp/gcno: is the program built with --coverage" "$tmp/err" ||
    fail "no warning: $(cat "$tmp/err")"
# The heading says what the number before the colon counts.
grep -qxF "per input (outcome, how many other features: their names):" "$tmp/out" ||
    fail "no per-input heading: $(cat "$tmp/out")"
grep -qxF "  $tmp/in/a.txt  exit:0  0:" "$tmp/out" || fail "cat's line: $(cat "$tmp/out")"
"$KPATH" run --gcov "$build/subjects" --results "$tmp/r2.jsonl" --start Expr \
    grammars/arith.ebnf "$tmp/in" -- "$calc" >"$tmp/out" 2>"$tmp/err" ||
    fail "calc: exit status $?: $(cat "$tmp/err")"
grep -q warning "$tmp/err" && fail "a warning with counters: $(cat "$tmp/err")"
grep -qxF "  $tmp/in/a.txt  exit:0  6: fn:add fn:main fn:parse_expr fn:parse_factor fn:parse_number fn:parse_term" "$tmp/out" ||
    fail "calc's line: $(cat "$tmp/out")"
exit 0
