#!/bin/sh
# A class that matches no character is a dead end, not a crash.  Java's and
# PostgreSQL's ANTLR lexers (grammars-v4) write letters above U+FFFF as two
# UTF-16 halves, [\uD800-\uDBFF] [\uDC00-\uDFFF]; surrogates are no
# characters, so those sets match nothing (tests/grammars/formats/
# Surrogates.g4), and so does [^\x00-\u{10FFFF}] in kpath's format.  Random
# generation once divided by the class's size of zero (SIGFPE, on `kpath
# cover` of PostgreSQLParser.g4), and `convert` wrote the surrogates as
# escapes the .ebnf loader refuses.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g4=tests/grammars/formats/Surrogates.g4
printf 'S := "a" | "b" [^\\x00-\\u{10FFFF}]* | "c" [^\\x00-\\u{10FFFF}];\n' >"$tmp/none.ebnf"

for g in $g4 "$tmp/none.ebnf"; do
    for seed in 1 2 3 4 5; do
        "$KPATH" gen --strategy random -n 20 --seed $seed -o "$tmp/r$seed" $g 2>"$tmp/err" ||
            fail "$g: random, seed $seed: exit status $?: $(tail -1 "$tmp/err")"
        "$KPATH" coverage $g "$tmp/r$seed" >/dev/null 2>"$tmp/err" ||
            fail "$g: random, seed $seed: an input does not parse: $(tail -1 "$tmp/err")"
        rm -rf "$tmp/r$seed"
    done
    for close in greedy shortest random; do
        "$KPATH" cover -k 2 --close-off $close $g >"$tmp/inputs" 2>"$tmp/err" ||
            fail "$g: cover --close-off $close: exit status $?: $(tail -1 "$tmp/err")"
    done
done
# The dead alternative is never used: "b" alone, never "c".
"$KPATH" gen --strategy random -n 50 "$tmp/none.ebnf" 2>/dev/null | sort -u >"$tmp/texts"
[ "$(tr '\n' ' ' <"$tmp/texts")" = "a b " ] || fail "none.ebnf gave: $(cat "$tmp/texts")"

# Written in every format that can hold it, it reads back as valid UTF-8
# and as the same graph (Fandango's names keep their angle brackets).
"$KPATH" graph $g4 >"$tmp/want" 2>/dev/null || fail "graph of $g4"
for f in ebnf g4 tribble fandango; do
    "$KPATH" convert --to $f $g4 >"$tmp/out.$f" 2>/dev/null || fail "convert --to $f: exit status $?"
    iconv -f UTF-8 -t UTF-8 "$tmp/out.$f" >/dev/null 2>&1 || fail "convert --to $f: invalid UTF-8"
    "$KPATH" graph --format $f "$tmp/out.$f" 2>"$tmp/err" | sed 's/<\([A-Za-z]*\)>/\1/' >"$tmp/got" ||
        fail "--to $f does not load back: $(head -1 "$tmp/err")"
    cmp -s "$tmp/want" "$tmp/got" || fail "--to $f: another graph"
done
exit 0
