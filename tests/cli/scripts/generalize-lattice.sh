#!/bin/sh
# kpath generalize's lattice (issue #35): items added to the shipped one with
# --lattice-add, found by the walk, by hand from lattices/default.ebnf and
# tests/lattices/vowels.ebnf:
#  - "k=" [aeiou]+, sample "k=aei": lower ("z") rejected, vowels ("a",
#    "eu", "io") accepted, lowerdash ("a-b") rejected: vowels;
#  - "k=" [a-z-]+, sample "k=www": lower accepted; lowernum ("a1"),
#    letters ("Z") rejected (hex does not hold "www"); lowerdash, added
#    above lower, accepted ("a-b", "x").
# Without --lattice-add the first stays a literal, the second is lower.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
rules() { grep -v '^#' "$1"; }

printf 'k=aei' >"$tmp/v.txt"
printf 'S := "k=" "aei";\n' >"$tmp/v.ebnf"
"$KPATH" generalize --lattice-add tests/lattices/vowels.ebnf --no-optional "$tmp/v.ebnf" \
    "$tmp/v.txt" -o "$tmp/v1.ebnf" -- sh -c 'grep -qxE "k=[aeiou]+"' >"$tmp/v1.out" 2>&1 ||
    { cat "$tmp/v1.out"; fail "vowels: exit status"; }
printf '%s\n' 'S := "k=" vowels;' 'vowels := [aeiou]+;' >"$tmp/want"
rules "$tmp/v1.ebnf" | diff "$tmp/want" - || fail "vowels: grammar differs"
grep -qxF '#: item vowels of the lattice tests/lattices/vowels.ebnf' "$tmp/v1.ebnf" ||
    fail "vowels: the note does not name the added file"
"$KPATH" generalize --no-optional "$tmp/v.ebnf" "$tmp/v.txt" -o "$tmp/v0.ebnf" \
    -- sh -c 'grep -qxE "k=[aeiou]+"' >/dev/null 2>&1 || fail "vowels without --lattice-add"
printf '%s\n' 'S := "k=" "aei";' >"$tmp/want"
rules "$tmp/v0.ebnf" | diff "$tmp/want" - || fail "vowels: the shipped lattice alone found something"

printf 'k=www' >"$tmp/w.txt"
printf 'S := "k=" "www";\n' >"$tmp/w.ebnf"
"$KPATH" generalize --lattice-add tests/lattices/vowels.ebnf --no-optional "$tmp/w.ebnf" \
    "$tmp/w.txt" -o "$tmp/w1.ebnf" -- sh -c 'grep -qxE "k=[a-z-]+"' >"$tmp/w1.out" 2>&1 ||
    { cat "$tmp/w1.out"; fail "lowerdash: exit status"; }
printf '%s\n' 'S := "k=" lowerdash;' 'lowerdash := [a-z-]+;' >"$tmp/want"
rules "$tmp/w1.ebnf" | diff "$tmp/want" - || fail "lowerdash: grammar differs"
grep -qF '(lower accepted, lowernum rejected, letters rejected, lowerdash accepted): queries accepted #7-#9, #12, #15; rejected #10-#11, #13-#14' \
    "$tmp/w1.ebnf" || { cat "$tmp/w1.ebnf"; fail "lowerdash: the walk"; }

# an added file cannot take a name the lattice has
"$KPATH" generalize --lattice-add tests/lattices/add-twice.ebnf "$tmp/w.ebnf" "$tmp/w.txt" \
    -- true >/dev/null 2>"$tmp/e.err"
[ $? = 2 ] || fail "a taken item name is not a usage error"
grep -qxF 'tests/lattices/add-twice.ebnf:1:1: error: item lower is in the lattice already (from a file read before)' \
    "$tmp/e.err" || { cat "$tmp/e.err"; fail "taken name: message"; }
exit 0
