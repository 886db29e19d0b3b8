#!/bin/sh
# Inputs written for an ANTLR grammar tokenize back, by ANTLR's rules, to
# the tokens they were generated from (graph/written.h): where tokens would
# run together or a line comment would swallow the rest, a skipped blank or
# newline goes in.  Worked out by hand from ANTLR's rules (longest match,
# the earlier rule on a tie):
#   W.g4: s : KW ID '-' '-' '--' ID KW ;  KW 'if', ID [a-z]+, WS ' ' skipped.
#     KW then ID: "ifa" is one ID, a blank is needed; ID then '-': none;
#     '-' '-': "--" is the token '--', a blank; '-' '--': "---" reads '--'
#     first, a blank; '--' then ID: none; ID then KW: "aif" is one ID, a
#     blank.  So every input is  if +ID *- +- +-- *ID +if  (blanks at the
#     ends allowed), and the one cover -k 1 writes, whose tree has the
#     letter a (the class's first) and one blank of its own (for WS, before
#     '--'), is exactly "if a- - --a if".
#   C.g4: a '#' comment runs to the line end, so a comment followed by a
#     token needs a newline: removing comments and blanks leaves  ID;ID.
# The written inputs still parse, with every k-path cover claims.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/W.g4" <<'G'
grammar W;
s : KW ID '-' '-' '--' ID KW EOF ;
KW : 'if' ;
ID : [a-z]+ ;
WS : ' ' -> skip ;
G
cat >"$tmp/C.g4" <<'G'
grammar C;
s : ID ';' ID EOF ;
ID : [a-z]+ ;
WS : ' ' -> skip ;
LC : '#' ~[\n]* -> skip ;
NL : '\n' -> skip ;
G

# check_w DIR: every input of DIR reads as KW ID '-' '-' '--' ID KW.
check_w() {
    n=0
    for f in "$1"/*.txt; do
        n=$((n + 1))
        [ "$(wc -l <"$f")" = 0 ] || fail "$f: more than one line"
        grep -Eq '^ *if +[a-z]+ *- +- +-- *[a-z]+ +if *$' "$f" ||
            fail "$f: '$(cat "$f")' does not read back as KW ID - - -- ID KW"
    done
    [ "$n" -gt 0 ] || fail "$1: no inputs"
}

for k in 1 2; do
    "$KPATH" cover -k $k "$tmp/W.g4" -o "$tmp/w$k" >"$tmp/out" 2>&1 || fail "cover -k $k: $(cat "$tmp/out")"
    check_w "$tmp/w$k"
    claimed=$(sed -n "s/^  k=$k: \([0-9]*\/[0-9]*\) .*/\1/p" "$tmp/out")
    "$KPATH" coverage -k $k "$tmp/W.g4" "$tmp/w$k"/*.txt >"$tmp/cov" 2>&1 || fail "coverage: $(cat "$tmp/cov")"
    grep -q "^total .*k=$k $claimed (100.0%)" "$tmp/cov" ||
        fail "k=$k: cover claims $claimed, the written inputs parse to: $(tail -3 "$tmp/cov")"
done
[ "$(cat "$tmp/w1/0001.txt")" = "if a- - --a if" ] || fail "cover -k 1 wrote '$(cat "$tmp/w1/0001.txt")'"

"$KPATH" gen -n 6 --seed 3 --strategy random "$tmp/W.g4" -o "$tmp/g" >/dev/null 2>&1 || fail "gen"
check_w "$tmp/g"
"$KPATH" bonsai "$tmp/W.g4" -o "$tmp/b" >/dev/null 2>&1 || fail "bonsai"
check_w "$tmp/b"

for k in 1 2; do
    "$KPATH" cover -k $k "$tmp/C.g4" -o "$tmp/c$k" >/dev/null 2>&1 || fail "cover C -k $k"
    for f in "$tmp/c$k"/*.txt; do
        toks=$(sed 's/#.*//' "$f" | tr -d ' \n')
        echo "$toks" | grep -Eq '^[a-z]+;[a-z]+$' ||
            fail "$f: '$(cat "$f")' without comments and blanks is '$toks', not ID;ID"
    done
    "$KPATH" coverage -k $k "$tmp/C.g4" "$tmp/c$k"/*.txt >"$tmp/cov" 2>&1 || fail "C coverage: $(cat "$tmp/cov")"
done
exit 0
