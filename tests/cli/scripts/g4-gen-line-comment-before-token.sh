#!/bin/sh
# A line comment that only a parser token ends (TOML's NL before ']') is
# followed by that token: the generator derives one more repetition (or
# another alternative) there rather than writing a comment that swallows
# what follows (gen/mend.h).  Worked out by hand from ANTLR's rules:
#   C.g4: s : '[' ID sep* ']' EOF ;  sep : NL | COMMENT ;  COMMENT '#'
#   ~[\n]*, NL '\n', ID [a-z]+, WS ' ' skipped.  No skipped token ends a
#   comment, so in "[a#x]" the comment reads "#x]" and the ']' is lost.
#   Every '#' must therefore have a line end after it before ']'.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/C.g4" <<'G'
grammar C;
s : '[' ID sep* ']' EOF ;
sep : NL | COMMENT ;
COMMENT : '#' ~[\n]* ;
NL : '\n' ;
ID : [a-z]+ ;
WS : ' ' -> skip ;
G
"$KPATH" gen --strategy random -n 60 --seed 1 "$tmp/C.g4" -o "$tmp/g" >"$tmp/out" 2>&1 ||
    fail "gen: $(cat "$tmp/out")"
n=0 comments=0
for f in "$tmp/g"/*.txt; do
    n=$((n + 1))
    # the text on one line (line ends as '~'), then the last line must hold
    # the ']' outside any comment
    last=$(awk 'END { print }' "$f")
    case $last in *'#'*) fail "$f: '$(cat "$f")': a comment swallows the ']'" ;; esac
    case $last in *']'*) ;; *) fail "$f: '$(cat "$f")' has no ']' on its last line" ;; esac
    ! grep -q '#' "$f" || comments=$((comments + 1))
done
[ "$n" = 60 ] || fail "$n inputs, not 60"
[ "$comments" -gt 0 ] || fail "no input has a comment: the test no longer tests the mend"
"$KPATH" coverage -k 1 "$tmp/C.g4" "$tmp/g"/*.txt >"$tmp/cov" 2>&1 || fail "coverage: $(cat "$tmp/cov")"
exit 0
