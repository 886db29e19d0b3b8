#!/bin/sh
# An ANTLR split grammar (tests/grammars/formats/Calc*.g4): skip tokens
# (whitespace, comments) are allowed between tokens, at the start and at the
# end, and the parse is unambiguous (kpath parse says so on stderr when a
# sample has several trees); a sample ANTLR rejects is rejected at its place.

set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=tests/grammars/formats/CalcParser.g4

"$KPATH" parse $g tests/grammars/formats/calc-sample.txt >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 0 ] || { cat "$tmp/err" >&2; fail "sample: exit status $status"; }
[ -s "$tmp/err" ] && { cat "$tmp/err" >&2; fail "sample: stderr not empty (ambiguous?)"; }

for text in 'x=1;' '  x = 1 ;  ' '/**/x/* a */=/*b*/1;/**/' 'a=(b+1);b=2;'; do
    printf '%s' "$text" >"$tmp/s"
    "$KPATH" parse $g "$tmp/s" >/dev/null 2>"$tmp/err" || fail "'$text' rejected: $(cat "$tmp/err")"
    [ -s "$tmp/err" ] && fail "'$text': $(cat "$tmp/err")"
done
# No blank inside a token, no statement without ';'.
for text in 'x = 1 2;' 'x = 1' 'x y = 1;'; do
    printf '%s' "$text" >"$tmp/s"
    if "$KPATH" parse $g "$tmp/s" >/dev/null 2>"$tmp/err"; then fail "'$text' accepted"; fi
    grep -q "^$tmp/s:1:" "$tmp/err" || fail "'$text': no position: $(cat "$tmp/err")"
done

exit 0
