#!/bin/sh
# \p{...} in an ANTLR grammar is the Unicode property's characters (issue
# 31): every character kpath generates for \p{Me} (the enclosing marks,
# from the Unicode code charts: U+0488-0489, U+1ABE, U+20DD-20E0,
# U+20E2-20E4, U+A670-A672) or \p{Grapheme_Cluster_Break=CR} (U+000D) is one
# of them; parse accepts a member and rejects a letter at its place; an
# unknown property is an error at file:line:col.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=$tmp/Marks.g4
printf '%s\n' 'grammar Marks;' 's : (ME | CR)+ EOF ;' \
    'ME : [\p{General_Category=Enclosing_Mark}] ;' 'CR : [\p{Grapheme_Cluster_Break=CR}] ;' >"$g"

for seed in 1 2 3 4; do
    "$KPATH" gen --strategy random --seed $seed -n 20 "$g" >>"$tmp/out" 2>"$tmp/err" ||
        fail "gen seed $seed: $(cat "$tmp/err")"
done
"$KPATH" cover -k 2 "$g" >>"$tmp/out" 2>"$tmp/err" || fail "cover: $(cat "$tmp/err")"
[ -s "$tmp/out" ] || fail "nothing generated"
# The bytes, less every allowed UTF-8 sequence and the line ends: nothing left.
left=$(printf ' %s ' "$(od -An -tx1 -v "$tmp/out" | tr -s ' \n' '  ')" |
    sed -e 's/ d2 8[89]//g' -e 's/ e1 aa be//g' -e 's/ e2 83 9[def]//g' -e 's/ e2 83 a[0234]//g' \
        -e 's/ ea 99 b[012]//g' -e 's/ 0[ad]//g' | tr -d ' ')
[ -z "$left" ] || fail "characters outside \\p{Me} and CR generated: bytes $left"

printf '\342\203\235\r\352\231\262' >"$tmp/ok"
"$KPATH" parse "$g" "$tmp/ok" >/dev/null 2>"$tmp/err" || fail "members rejected: $(cat "$tmp/err")"
printf '\342\203\235\303\251' >"$tmp/bad"   # U+20DD then é (a letter, no mark)
if "$KPATH" parse "$g" "$tmp/bad" >/dev/null 2>"$tmp/err"; then fail "a letter accepted as \\p{Me}"; fi
grep -q "^$tmp/bad:1:2: " "$tmp/err" || fail "the letter not reported at 1:2: $(cat "$tmp/err")"

printf '%s\n' 'grammar Bad;' 's : A ;' 'A : [x\P{Nonsense}] ;' >"$tmp/Bad.g4"
if "$KPATH" info "$tmp/Bad.g4" >/dev/null 2>"$tmp/err"; then fail "unknown property accepted"; fi
grep -q "^$tmp/Bad.g4:3:7: error: unknown Unicode property \\\\P{Nonsense}" "$tmp/err" ||
    fail "unknown property: $(cat "$tmp/err")"
exit 0
