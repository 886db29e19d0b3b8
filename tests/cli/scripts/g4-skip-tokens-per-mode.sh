#!/bin/sh
# Skip tokens per lexer mode (tests/grammars/formats/Tag*.g4): a blank is
# skipped outside a tag and an error inside (ANTLR's lexer has no token for
# it in mode TAG); a tab is skipped inside a tag and a token (TAB) outside.
# Until skip tokens followed the modes, every mode's skip tokens were
# allowed everywhere: 'a <x y> b' and '<x >' were accepted, and 'a\tb'
# had two parse trees (TAB or a skipped tab); now ANTLR's reading only.
# Words and names are single letters so that no input has two trees for
# other reasons (two letters are one token or two, see docs/formats.md).

set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=tests/grammars/formats/TagParser.g4

# Accepted with exactly one tree (stderr holds only the mode warning).
for text in 'a <x\ty> b' 'a\tb' 'a <x>\tb' '  <\tx\t>  ' 'a b\t<>'; do
    printf "$text" >"$tmp/s"
    "$KPATH" parse $g "$tmp/s" >/dev/null 2>"$tmp/err" || fail "'$text' rejected: $(cat "$tmp/err")"
    grep -v "warning: lexer mode 'TAG'" "$tmp/err" >"$tmp/rest"
    [ -s "$tmp/rest" ] && fail "'$text': $(cat "$tmp/rest")"
done
# Rejected at the blank inside the tag, line and column.
for case in 'a <x y> b:5' '<x >:3' '< x>:2'; do
    text=${case%:*} col=${case##*:}
    printf "$text" >"$tmp/s"
    if "$KPATH" parse $g "$tmp/s" >/dev/null 2>"$tmp/err"; then fail "'$text' accepted"; fi
    grep -q "^$tmp/s:1:$col: error: no token matches here: ' " "$tmp/err" ||
        fail "'$text': not at 1:$col: $(cat "$tmp/err")"
done
exit 0
