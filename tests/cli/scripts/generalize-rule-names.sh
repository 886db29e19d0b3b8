#!/bin/sh
# Names that read (issue #35, src/infer/rule_names.h): grammar-from and
# generalize rename the machine-made rules (a name ending in a digit, not
# the start rule) from what they hold; the language does not change.
# Every expected name is worked out by hand from the contract:
#  - grammar-from: a JSON object sample is object, an array sample array, an
#    INI section sample section ("[" ... "]" "\n"), a CSV sample list (","),
#    an arithmetic one expr, a URL url ("://"), a quoted one string;
#  - generalize against lang ident ([a-z_][a-z0-9_]* "=" [0-9]+ ("," [0-9]+)*
#    ";"?) from "abc=12,34;": the sample's rule holds "=", so pair; the
#    lattice's rules (lower, digits) keep their names;
#  - a hand-written grammar with numbered rules (as a structure learner
#    makes), all generalizations off so only the names change: r1 := "abc"
#    is named only right before "=" and ":", so key; r2 := "12" is digits,
#    taken by a person's rule, so digits_2; obj1 object, arr1 array, x7
#    ("-"? digits ("." digits)?) number; r3 := ("," r2)* ";" is none of
#    these and keeps its name, as do S (the start) and digits (no digit at
#    its end).  Then both grammars parse the same inputs, valid and not.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
lang=$(dirname "$KPATH")/tests/subjects/lang
[ -x "$lang" ] || fail "no $lang (make subjects)"
rules() { grep -v '^#' "$1"; }

# grammar-from: one rule per sample, named from its delimiters and separators
printf '{"a": 1}' >"$tmp/1.txt"
printf '[1, 2]' >"$tmp/2.txt"
printf '[s]\nk = v\n' >"$tmp/3.txt"
printf 'a,b\nc,d\n' >"$tmp/4.txt"
printf '1+2*3' >"$tmp/5.txt"
printf 'http://a.org/x' >"$tmp/6.txt"
printf '"hi there"' >"$tmp/7.txt"
printf '(4-5)/6' >"$tmp/8.txt"
"$KPATH" grammar-from "$tmp"/[1-8].txt -o "$tmp/from.ebnf" 2>"$tmp/err" ||
    { cat "$tmp/err"; fail "grammar-from: exit status"; }
rules "$tmp/from.ebnf" | sed 's/ :=.*//' >"$tmp/names"
printf '%s\n' input object array section list expr url string expr_2 >"$tmp/want"
diff "$tmp/want" "$tmp/names" || fail "grammar-from: names differ"
grep -qxF '#: named object from what it holds (was sample1)' "$tmp/from.ebnf" ||
    fail "grammar-from: no note of the old name"
head -2 "$tmp/from.ebnf" | tail -1 |
    grep -qxF 'input := object | array | section | list | expr | url | string | expr_2;' ||
    fail "grammar-from: the start rule does not name the new names"
"$KPATH" check "$tmp/from.ebnf" >/dev/null 2>&1 || fail "grammar-from: the grammar does not load"

# generalize with a known oracle
printf 'abc=12,34;' >"$tmp/s.txt"
"$KPATH" grammar-from "$tmp/s.txt" -o "$tmp/c.ebnf" || fail "grammar-from s.txt"
"$KPATH" generalize "$tmp/c.ebnf" "$tmp/s.txt" -o "$tmp/g.ebnf" -- "$lang" ident \
    >"$tmp/g.out" 2>&1 || { cat "$tmp/g.out"; fail "generalize: exit status"; }
rules "$tmp/g.ebnf" | sed 's/ :=.*//' >"$tmp/names"
printf '%s\n' input pair lower digits >"$tmp/want"
diff "$tmp/want" "$tmp/names" || fail "generalize: names differ"

# a grammar with numbered rules; the names alone change
cat >"$tmp/h.ebnf" <<'EOF'
S := r1 "=" r2 r3 | obj1 | arr1 | digits | x7;
r1 := "abc";
r2 := "12";
r3 := ("," r2)* ";";
obj1 := "{" r1 ":" r2 "}";
arr1 := "[" r2 ("," r2)* "]";
digits := [0-9]+;
x7 := "-"? [0-9]+ ("." [0-9]+)?;
EOF
printf 'abc=12,12;' >"$tmp/h.txt"
"$KPATH" generalize "$tmp/h.ebnf" "$tmp/h.txt" -o "$tmp/hn.ebnf" --no-strings \
    --no-repetitions --no-optional -- true >"$tmp/h.out" 2>&1 ||
    { cat "$tmp/h.out"; fail "hand grammar: exit status"; }
cat >"$tmp/want" <<'EOF'
S := key "=" digits_2 r3 | object | array | digits | number;
key := "abc";
digits_2 := "12";
r3 := ("," digits_2)* ";";
object := "{" key ":" digits_2 "}";
array := "[" digits_2 ("," digits_2)* "]";
digits := [0-9]+;
number := "-"? [0-9]+ ("." [0-9]+)?;
EOF
rules "$tmp/hn.ebnf" | diff "$tmp/want" - || fail "hand grammar: names differ"
# the same language: each input parses under both or under neither
n=0 valid=0
for input in 'abc=12;' 'abc=12,12,12;' '{abc:12}' '[12]' '[12,12,12]' '0' '007' '-3.5' \
    '12.25' 'abc=12' 'abc=13;' '{abc:12,}' '[]' '-' '1.' 'abc' '' 'x'; do
    n=$((n + 1))
    printf '%s' "$input" >"$tmp/in$n.txt"
    "$KPATH" parse "$tmp/h.ebnf" "$tmp/in$n.txt" >/dev/null 2>&1
    before=$?
    "$KPATH" parse "$tmp/hn.ebnf" "$tmp/in$n.txt" >/dev/null 2>&1
    after=$?
    [ $before = $after ] || fail "'$input': exit status $before before the names, $after after"
    [ $before = 0 ] && valid=$((valid + 1))
done
# by hand: the first nine are in the language, the other nine are not
[ $valid = 9 ] || fail "$valid of the inputs parse, not 9"
exit 0
