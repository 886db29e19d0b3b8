#!/bin/sh
# kpath generalize learns a host as a repetition of labels (issue #35),
# against an oracle whose language is known exactly (tests/subjects/lang.c,
# mode dotted: [a-z]+ ("." [a-z]+)*).  From the sample "www.google.com",
# grammar-from gives "www" "." "google" "." "com", the strings become lower,
# and the run lower "." lower "." lower is (lower ".") twice with a lower
# after it: the repetition is read from the second item, ("." lower)+, so
# the rule reads label ("." label)* as a person writes it (before:
# (lower ".")* lower, the same language).  Worked out by hand from
# src/infer/generalize.h.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
lang=$(dirname "$KPATH")/tests/subjects/lang
[ -x "$lang" ] || fail "no $lang (make subjects)"
printf 'www.google.com' >"$tmp/h.txt"
"$KPATH" grammar-from "$tmp/h.txt" -o "$tmp/c.ebnf" >/dev/null 2>&1 || fail "grammar-from"
"$KPATH" generalize "$tmp/c.ebnf" "$tmp/h.txt" -o "$tmp/o.ebnf" -- "$lang" dotted \
    >"$tmp/o.out" 2>&1 || { cat "$tmp/o.out"; fail "exit status"; }
printf '%s\n' 'input := name;' 'name := lower ("." lower)*;' 'lower := [a-z]+;' >"$tmp/want"
grep -v '^#' "$tmp/o.ebnf" | diff "$tmp/want" - || fail "grammar differs"
grep -q '^#: repetition ("." lower)+ (1 to 5 times): queries accepted' "$tmp/o.ebnf" ||
    fail "no note of the repetition"
grep -qxF '  => ("." lower)+' "$tmp/o.out" || fail "no repetition in the log"
for s in a a.b x.y.z.w a. .a a..b A ''; do
    printf '%s' "$s" >"$tmp/t.txt"
    "$lang" dotted <"$tmp/t.txt"; want=$?
    "$KPATH" parse "$tmp/o.ebnf" "$tmp/t.txt" >/dev/null 2>&1; got=$?
    [ "$want" = 0 ] && [ "$got" != 0 ] && fail "$s is valid, not parsed"
    [ "$want" != 0 ] && [ "$got" = 0 ] && fail "$s is not valid, but parsed"
done
exit 0
