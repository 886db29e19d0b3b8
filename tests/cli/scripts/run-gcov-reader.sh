#!/bin/sh
# --gcov reads the counters itself (issue 34): no gcov process per run, so
# it works with no gcov in PATH at all, with the features worked out by
# hand in run-gcov-calc.sh ("1+2": add and the parse functions; "1/0":
# divide and division_by_zero, exit 3; "-(1)": a crash, no counters).
# Counters cut short are refused: exit status 1 and a message that names
# the object's counters, the input, and where the file is cut.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
build=$(cd "$(dirname "$KPATH")" && pwd)
calc=$build/subjects/calc
[ -x "$calc" ] || fail "no $calc (make subjects)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/in" "$tmp/nobin"
printf '1+2' >"$tmp/in/1.txt"
printf '1/0' >"$tmp/in/2.txt"
printf -- '-(1)' >"$tmp/in/3.txt"
PATH="$tmp/nobin" "$KPATH" run -q -j 2 --gcov "$build/subjects" --results "$tmp/r.jsonl" \
    --start Expr grammars/arith.ebnf "$tmp/in" -- "$calc" >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "without gcov in PATH: exit status $?"; }
grep -q "gcov\|error\|warning" "$tmp/err" && { cat "$tmp/err" >&2; fail "without gcov in PATH: a message"; }
features() { grep -F "\"input\":\"$tmp/in/$1.txt\"" "$tmp/r.jsonl" | sed 's/.*"features":\[\(.*\)\]}$/\1/' | tr -d '"'; }
[ "$(features 1)" = "exit:0,fn:add,fn:main,fn:parse_expr,fn:parse_factor,fn:parse_number,fn:parse_term" ] ||
    fail "1+2: $(features 1)"
[ "$(features 2)" = "exit:3,fn:divide,fn:division_by_zero,fn:main,fn:parse_expr,fn:parse_factor,fn:parse_number,fn:parse_term" ] ||
    fail "1/0: $(features 2)"
[ "$(features 3)" = "signal:SIGSEGV" ] || fail "-(1): $(features 3)"

# Counters cut short: a real run's calc.gcda without its last 6 bytes
# (inside its last record's header), put where the run's program would
# write it.
GCOV_PREFIX="$tmp/g" GCOV_PREFIX_STRIP=0 "$calc" <"$tmp/in/1.txt" >/dev/null
gcda=$tmp/g$build/subjects/calc.gcda
[ -s "$gcda" ] || fail "calc wrote no counters below GCOV_PREFIX"
size=$(wc -c <"$gcda")
head -c $((size - 6)) "$gcda" >"$tmp/cut.gcda"
cat >"$tmp/writer" <<SH
#!/bin/sh
mkdir -p "\$GCOV_PREFIX$build/subjects" && cp "$tmp/cut.gcda" "\$GCOV_PREFIX$build/subjects/calc.gcda"
SH
chmod +x "$tmp/writer"
"$KPATH" run -q --gcov "$build/subjects" --results "$tmp/c.jsonl" --start Expr \
    grammars/arith.ebnf "$tmp/in/1.txt" -- "$tmp/writer" >/dev/null 2>"$tmp/err"
status=$?
[ "$status" = 1 ] || { cat "$tmp/err" >&2; fail "cut counters: exit status $status"; }
grep -qF "$build/subjects/calc.gcda (the run of $tmp/in/1.txt): error: corrupt gcov counters at byte " "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "cut counters: message"; }
grep -q "cut short\|runs past the end of the file" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "cut counters: what is wrong"; }
exit 0
