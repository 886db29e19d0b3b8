#!/bin/sh
# kpath generalize on a URL in small (issue #35), against an oracle whose
# language is known exactly (tests/subjects/lang.c, mode authority:
# "s://" ([a-z]+ "@")? H ("/" P)?, H = [a-z]+ ("." [a-z]+)*, P = the
# characters of a URI, lower case, any number).  From the sample "s://u@h/p":
#  - "p" becomes urilower (lattices/default.ebnf: the lower-case URI
#    characters; "a.B" of uri is rejected), so paths with ":", "?", "%", "["
#    are learned (before, "p" stopped at lowernum);
#  - parts with a literal at one end at most are left out first, longest
#    first: "u@" ("s://h/p"), then "/p" and "p", so the user is optional as
#    a part, as the language says (before: "s://" lower (("@" lower)? ...),
#    the user read as the host);
#  - "u@h" may not be left out: "s://p" is valid, but only because "p" is
#    then read as the host, and the path's other examples say so ("s:///:@",
#    "s://?=&#" are rejected while "s://u@h//:@" is not).  Each lattice
#    item around an omission is given each of its examples in turn, not
#    only the first ("s://a.b" is valid too), so the grammar does not derive
#    "s://[x]".
# The language learned is then the oracle's without dotted hosts (the sample
# has none): "s://" ([a-z]+ "@")? [a-z]+ ("/" P)?.  Worked out by hand from
# src/infer/generalize.h.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
lang=$(dirname "$KPATH")/tests/subjects/lang
[ -x "$lang" ] || fail "no $lang (make subjects)"
printf 's://u@h/p' >"$tmp/s.txt"
printf 'S := "s" ":" "/" "/" "u" "@" "h" "/" "p";\n' >"$tmp/s.ebnf"
"$KPATH" generalize "$tmp/s.ebnf" "$tmp/s.txt" -o "$tmp/o.ebnf" -j 2 \
    -- "$lang" authority >"$tmp/o.out" 2>&1 || { cat "$tmp/o.out"; fail "exit status"; }
printf '%s\n' 'S := "s" ":" "/" "/" (lower "@")? lower ("/" urilower?)?;' \
    'lower := [a-z]+;' "urilower := [a-z0-9\\-._~:/?#\\[\\]@!\$&'()*+,;=%]+;" >"$tmp/want"
grep -v '^#' "$tmp/o.ebnf" | diff "$tmp/want" - || fail "grammar differs"
grep -q '^#: string "p" -> urilower (lower accepted, lowernum accepted, .*urilower accepted, uri rejected)' \
    "$tmp/o.ebnf" || fail "no note of the walk to urilower"
# what it parses is what the oracle accepts, dotted hosts aside
for s in 's://h' 's://h/' 's://u@h' 's://u@h/a:b?c=d#[x]' 's://h/%2f' 's://h//:@' \
    's://p' 's:///:@' 's://?=&#' 's://[x]' 's://u@' 's://@h' 's://u@h/ ' 's:/h' 'S://h'; do
    printf '%s' "$s" >"$tmp/t.txt"
    "$lang" authority <"$tmp/t.txt"; want=$?
    "$KPATH" parse "$tmp/o.ebnf" "$tmp/t.txt" >/dev/null 2>&1; got=$?
    [ "$want" = 0 ] && [ "$got" != 0 ] && fail "$s is valid, not parsed"
    [ "$want" != 0 ] && [ "$got" = 0 ] && fail "$s is not valid, but parsed"
done
# and every input generated from it is valid
"$KPATH" gen --strategy random -n 200 --seed 1 -o "$tmp/gen" "$tmp/o.ebnf" >/dev/null 2>&1 ||
    fail "gen failed"
for f in "$tmp"/gen/*.txt; do
    "$lang" authority <"$f" || fail "generated $(cat "$f"), which is not valid"
done
exit 0
