#!/bin/sh
# kpath generalize asks optional parts together (issue #35), against an
# oracle whose language is known exactly (tests/subjects/lang.c, mode
# either: "a" ("b" | "c" | "bc")).  From the sample "abc", "b" may be left
# out ("ac") and "c" may ("ab"), but not both ("a" is rejected), so the
# grammar must not be "a" "b"? "c"? (which derives "a"): "c" is optional
# only where "b" is there.  Worked out by hand from src/infer/generalize.h
# (single letters are delimited parts, asked first: "bc" #19, "ac" #20,
# "ab" #21 with "a" #22).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
lang=$(dirname "$KPATH")/tests/subjects/lang
[ -x "$lang" ] || fail "no $lang (make subjects)"
printf 'abc' >"$tmp/abc.txt"
printf 'S := "a" "b" "c";\n' >"$tmp/abc.ebnf"
"$KPATH" generalize --lattice lattices/default.ebnf "$tmp/abc.ebnf" "$tmp/abc.txt" \
    -o "$tmp/o.ebnf" -- "$lang" either >"$tmp/o.out" 2>&1 ||
    { cat "$tmp/o.out"; fail "either: exit status"; }
printf '%s\n' 'S := "a" ("b" "c"? | "c");' >"$tmp/want"
grep -v '^#' "$tmp/o.ebnf" | diff "$tmp/want" - || fail "either: grammar differs"
# every string the grammar derives is in the language, and back
for s in a ab ac abc b c bc; do
    printf '%s' "$s" >"$tmp/s.txt"
    "$lang" either <"$tmp/s.txt"; want=$?
    "$KPATH" parse "$tmp/o.ebnf" "$tmp/s.txt" >/dev/null 2>&1; got=$?
    [ "$want" = 0 ] && [ "$got" != 0 ] && fail "either: $s is valid, not parsed"
    [ "$want" != 0 ] && [ "$got" = 0 ] && fail "either: $s is not valid, but parsed"
done
grep -qF '#: optional, but not with "b"? omitted too: ("b" "c"? | "c"): queries accepted #21; rejected #22' \
    "$tmp/o.ebnf" || fail "either: no note naming the queries"
exit 0
