#!/bin/sh
# kpath generalize (the default learner: grammar-from, then generalize)
# leaves out together what may only go together (issue #35), against an
# oracle whose language is known exactly (tests/subjects/lang.c, mode
# nested: L = "[" (L ("," L)*)? "]" | [0-9]+).  From the sample [1,[2,3]],
# grammar-from gives "[" "1" "," "[" "2" "," "3" "]" "]", the numbers
# become digits, and then (src/infer/generalize.h):
#  - parts delimited by a literal (one at an end) are asked first: the
#    first digits "," ([[2,3]]) and the inner one ([1,[3]]) are optional;
#    the inner "3" is not ([1,[2,]]);
#  - the inner list "[" (digits ",")? digits "]" may not go alone ([1,] is
#    no member), but with the optional part next to it left out too ([]) it
#    may: the two are made optional together, so the learned grammar holds
#    [], [[2]] and [[2,3]] (before: "[" (digits ("," "[" ((digits ",")?
#    digits)? "]")?)? "]", a "," left behind by every inner list, [[2]]
#    not learned).
# The members and non-members below are checked against the oracle itself.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
lang=$(dirname "$KPATH")/tests/subjects/lang
[ -x "$lang" ] || fail "no $lang (make subjects)"
printf '[1,[2,3]]' >"$tmp/s.txt"
"$KPATH" grammar-from "$tmp/s.txt" -o "$tmp/c.ebnf" >/dev/null 2>&1 || fail "grammar-from"
"$KPATH" generalize "$tmp/c.ebnf" "$tmp/s.txt" -o "$tmp/o.ebnf" --log "$tmp/o.log" \
    -- "$lang" nested >"$tmp/o.out" 2>&1 || { cat "$tmp/o.out"; fail "exit status"; }
printf '%s\n' 'input := array;' \
    'array := "[" ((digits ",")? "[" (digits ",")? digits "]")? "]";' \
    'digits := [0-9]+;' >"$tmp/want"
grep -v '^#' "$tmp/o.ebnf" | diff "$tmp/want" - || fail "grammar differs"
grep -qF '#: optional together with (digits ",")?: ((digits ",")? "[" (digits ",")? digits "]")?' \
    "$tmp/o.ebnf" || fail "no note of the omission together"
grep -A3 '^array: omit "\[" (digits ",")? digits "\]"' "$tmp/o.log" | grep -qF 'yes  "[]"' ||
    fail "the omission with the other optional part was not asked"
for s in '[]' '[[2]]' '[[2,3]]' '[7,[8,9]]' '[1,]' '[,[2]]' '[[]' '[1,[2,3],]' '[[2,]]'; do
    printf '%s' "$s" >"$tmp/t.txt"
    "$lang" nested <"$tmp/t.txt"; want=$?
    "$KPATH" parse "$tmp/o.ebnf" "$tmp/t.txt" >/dev/null 2>&1; got=$?
    [ "$want" = 0 ] && [ "$got" != 0 ] && fail "$s is valid, not parsed"
    [ "$want" != 0 ] && [ "$got" = 0 ] && fail "$s is not valid, but parsed"
done
exit 0
