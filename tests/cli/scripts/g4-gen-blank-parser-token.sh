#!/bin/sh
# Where the grammar's blanks are a parser token (CSS3's `ws`) and no skip
# token separates two tokens, the generator derives the blank rather than
# writing two tokens that run together (gen/mend.h).  Worked out by hand
# from ANTLR's rules (longest match):
#   B.g4: s : ID ws ID ws EOF ;  ws : WS* ;  ID [a-z]+, WS ' '+, nothing
#   skipped.  "ab" is one ID; only "a b" (a WS between) reads as ID ID.
# Before, the first `ws` was derived empty ("aa "), which ANTLR reads as
# one ID.  So every input is  [a-z]+ +[a-z]+ *  for k = 1 and 2, and the
# last pass of cover (suite_shrink) must not drop the blank again.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/B.g4" <<'G'
grammar B;
s : ID ws ID ws EOF ;
ws : WS* ;
ID : [a-z]+ ;
WS : ' '+ ;
G
for k in 1 2; do
    "$KPATH" cover -k $k "$tmp/B.g4" -o "$tmp/c$k" >"$tmp/out" 2>&1 || fail "cover -k $k: $(cat "$tmp/out")"
    n=0
    for f in "$tmp/c$k"/*.txt; do
        n=$((n + 1))
        grep -Eq '^[a-z]+ +[a-z]+ *$' "$f" || fail "$f: '$(cat "$f")' does not read back as ID ID"
    done
    [ "$n" -gt 0 ] || fail "cover -k $k wrote no inputs"
done
"$KPATH" gen --strategy random -n 50 --seed 1 "$tmp/B.g4" -o "$tmp/g" >"$tmp/out" 2>&1 || fail "gen: $(cat "$tmp/out")"
for f in "$tmp/g"/*.txt; do
    grep -Eq '^[a-z]+ +[a-z]+ *$' "$f" || fail "$f: '$(cat "$f")' does not read back as ID ID"
done
exit 0
