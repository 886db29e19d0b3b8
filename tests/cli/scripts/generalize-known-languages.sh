#!/bin/sh
# kpath generalize and grammar-from against oracles whose languages are known
# exactly (tests/subjects/lang.c), so what each generalization must find is
# worked out by hand from the algorithm (src/infer/generalize.h):
#  - digits    "n=" [0-9]+: "42" becomes digits (posint, digits accepted;
#              number's "-7", hex's "9f", uppernum's "A1" rejected) and
#              nothing more;
#  - optional  "a" "b"? "c": from the sample "abc", only "b" may be omitted;
#  - list      "x" ("," "x")*: grammar-from gives "x" "," "x" "," "x" (a rule
#              named list for its ",": src/infer/rule_names.h), the group
#              ("x" ",") repeats twice and "x" follows, so the run is read
#              from the second "x": ("," "x") repeats, then it may be left
#              out, the language's own form.
# The log is the same whatever -j, --log writes it, -o is written only when
# everything worked, and the written grammar loads.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
lang=$(dirname "$KPATH")/tests/subjects/lang
[ -x "$lang" ] || fail "no $lang (make subjects)"
rules() { grep -v '^#' "$1"; }

# digits
"$KPATH" generalize tests/lattices/digits.ebnf tests/lattices/digits.txt -o "$tmp/d.ebnf" \
    --log "$tmp/d.log" -j 2 -- "$lang" digits >"$tmp/d.out" 2>"$tmp/err" ||
    { cat "$tmp/err"; fail "digits: exit status $?"; }
printf '%s\n' 'S := "n=" digits;' 'digits := [0-9]+;' >"$tmp/want"
rules "$tmp/d.ebnf" | diff "$tmp/want" - || fail "digits: grammar differs"
grep -qxF '#: string "42" -> digits (posint accepted, digits accepted, number rejected, hex rejected, uppernum rejected): queries accepted #1, #7-#11; rejected #12-#20' \
    "$tmp/d.ebnf" || fail "digits: no note naming the queries"
grep -qxF '    #12   no   "n=-7"' "$tmp/d.log" || fail "digits: the log has no rejected n=-7"
# (omitting "n=" is also asked where digits is another of its examples:
# "n=0", asked before, and "0", new)
tail -1 "$tmp/d.out" | grep -qxF '24 queries (6 accepted), 4 asked again from memory, 1 change' ||
    fail "digits: summary: $(tail -1 "$tmp/d.out")"
# the log printed is the log written (less the summary line), and -j 1 asks the same
sed '$d' "$tmp/d.out" | cmp -s - "$tmp/d.log" || fail "digits: --log differs from the printed log"
"$KPATH" generalize tests/lattices/digits.ebnf tests/lattices/digits.txt -o "$tmp/d1.ebnf" \
    -j 1 -- "$lang" digits >"$tmp/d1.out" 2>/dev/null || fail "digits -j 1"
cmp -s "$tmp/d.out" "$tmp/d1.out" || fail "the log depends on -j"
cmp -s "$tmp/d.ebnf" "$tmp/d1.ebnf" || fail "the grammar depends on -j"
"$KPATH" check "$tmp/d.ebnf" >/dev/null 2>&1 || fail "the generalized grammar does not load"
# without -o: the grammar on stdout, the log on stderr
"$KPATH" generalize tests/lattices/digits.ebnf tests/lattices/digits.txt \
    -- "$lang" digits >"$tmp/d2.ebnf" 2>"$tmp/d2.log" || fail "digits to stdout"
cmp -s "$tmp/d.ebnf" "$tmp/d2.ebnf" || fail "stdout grammar differs from -o"
cmp -s "$tmp/d.out" "$tmp/d2.log" || fail "stderr log differs"

# optional
printf 'abc' >"$tmp/abc.txt"
printf 'S := "a" "b" "c";\n' >"$tmp/abc.ebnf"
"$KPATH" generalize "$tmp/abc.ebnf" "$tmp/abc.txt" -o "$tmp/o.ebnf" -- "$lang" optional \
    >"$tmp/o.out" 2>&1 || { cat "$tmp/o.out"; fail "optional: exit status"; }
printf '%s\n' 'S := "a" "b"? "c";' >"$tmp/want"
rules "$tmp/o.ebnf" | diff "$tmp/want" - || fail "optional: grammar differs"

# list, from grammar-from
printf 'x,x,x' >"$tmp/list.txt"
"$KPATH" grammar-from "$tmp/list.txt" -o "$tmp/l0.ebnf" || fail "grammar-from"
printf '%s\n' 'input := list;' 'list := "x" "," "x" "," "x";' >"$tmp/want"
rules "$tmp/l0.ebnf" | diff "$tmp/want" - || fail "grammar-from: grammar differs"
"$KPATH" generalize "$tmp/l0.ebnf" "$tmp/list.txt" -o "$tmp/l.ebnf" -- "$lang" list \
    >"$tmp/l.out" 2>&1 || { cat "$tmp/l.out"; fail "list: exit status"; }
printf '%s\n' 'input := list;' 'list := "x" ("," "x")*;' >"$tmp/want"
rules "$tmp/l.ebnf" | diff "$tmp/want" - || fail "list: grammar differs"
grep -qxF '  => ("," "x")+' "$tmp/l.out" || fail "list: no repetition in the log"
# five occurrences were asked, and accepted
grep -qF 'yes  "x,x,x,x,x,x"' "$tmp/l.out" || fail "list: 5 occurrences not asked"

# a failure leaves -o untouched
printf 'old\n' >"$tmp/keep.ebnf"
"$KPATH" generalize tests/lattices/digits.ebnf tests/lattices/digits.txt -o "$tmp/keep.ebnf" \
    -- false >/dev/null 2>&1
[ $? = 2 ] || fail "a rejected sample is not exit status 2"
[ "$(cat "$tmp/keep.ebnf")" = old ] || fail "-o was changed by a failed run"
exit 0
