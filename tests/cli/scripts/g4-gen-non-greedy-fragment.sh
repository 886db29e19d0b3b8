#!/bin/sh
# A token rule whose non-greedy loop is in a fragment stops, as ANTLR's
# lexer does, where that loop first lets it end (grammar/lexer.h), so that
# mending the written inputs sees the tokens ANTLR sees.  Worked out by hand
# from ANTLR's rules:
#   H.g4: s : H ID '>' ID KW EOF ;  H '<' (T | ~[<>])* '>' with fragment
#   T '<' .*? '>';  KW 'if', ID [a-z]+, WS ' ' skipped.
#   In "<<!>!>a>aif", H is "<<!>!>" ('<', T "<!>" ending at its first '>',
#   '!', '>'): H cannot go on past its '>' without a T, which starts with
#   '<'.  Then ID "a", '>', and "aif", one ID, where ID KW was derived: a
#   blank is needed before "if".  Before, kpath's lexer let T's loop run
#   greedily to the last '>' of the text, so H seemed to swallow "a>a"; no
#   separator helped and the input was written as derived, "aif" and all.
# So every input is  H *ID *'>' *ID +if  (blanks at the ends allowed).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/H.g4" <<'G'
grammar H;
s : H ID '>' ID KW EOF ;
H : '<' (T | ~[<>])* '>' ;
fragment T : '<' .*? '>' ;
KW : 'if' ;
ID : [a-z]+ ;
WS : ' ' -> skip ;
G
for k in 1 2; do
    "$KPATH" cover -k $k "$tmp/H.g4" -o "$tmp/c$k" >"$tmp/out" 2>&1 || fail "cover -k $k: $(cat "$tmp/out")"
    n=0
    for f in "$tmp/c$k"/*.txt; do
        n=$((n + 1))
        grep -Eq '^ *<[^ ]*> *[a-z]+ *> *[a-z]+ +if *$' "$f" ||
            fail "$f: '$(cat "$f")' does not read back as H ID '>' ID KW"
    done
    [ "$n" -gt 0 ] || fail "cover -k $k wrote no inputs"
    "$KPATH" coverage -k $k "$tmp/H.g4" "$tmp/c$k"/*.txt >"$tmp/cov" 2>&1 || fail "coverage: $(cat "$tmp/cov")"
done
exit 0
