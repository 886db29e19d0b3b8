#!/bin/sh
# Issue 38 item 3: cover claims only the k-paths a parse of its own inputs
# finds.  A repetition past a quantifier's minimum that produces no text is in
# no tree kpath counts (docs/design/definitions.md), so in
#   S := "[" E? "]"; E := V; V := "" | "a";
# the 2-path V_5 -> ""_7 (only in "[" E(V("")) "]") is covered by no input:
# of the 3 2-paths (E_4 V_5, V_5 ""_7, V_5 "a"_8) cover and coverage both
# say 2.  Likewise with E*, the empty ANTLR alternative and T := T? (none of
# its one 2-path T_1 T_1).  check warns at the quantifier.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

printf 'S := "[" E? "]";\nE := V;\nV := "" | "a";\n' >"$tmp/opt.ebnf"
printf 'S := "[" E* "]";\nE := V;\nV := "" | "a";\n' >"$tmp/star.ebnf"
printf "grammar G;\ns : '[' e? ']' ;\ne : v ;\nv : | 'a' ;\n" >"$tmp/alt.g4"
printf 'T := T?;\n' >"$tmp/self.ebnf"

for case in opt.ebnf:2/3 star.ebnf:2/3 alt.g4:2/3 self.ebnf:0/1; do
    g=${case%%:*} want=${case#*:}
    "$KPATH" cover -k 2 "$tmp/$g" -o "$tmp/out-$g" 2>"$tmp/err" || fail "$g: cover failed"
    grep -q "^  k=2: $want " "$tmp/err" || { cat "$tmp/err" >&2; fail "$g: cover does not claim $want"; }
    grep -q 'found only in a repetition that produces no text' "$tmp/err" ||
        fail "$g: cover does not say why"
    set -- "$tmp/out-$g"/*.txt
    if [ -e "$1" ]; then
        "$KPATH" coverage -k 2 "$tmp/$g" "$@" >"$tmp/cov" 2>&1 || fail "$g: coverage failed"
        grep -q "^total .*k=2 $want " "$tmp/cov" || { cat "$tmp/cov" >&2; fail "$g: coverage differs"; }
    fi
    "$KPATH" check "$tmp/$g" 2>"$tmp/check" || fail "$g: check fails"
    grep -q "warning: the repeated item in rule '[sST]' can produce no text" "$tmp/check" ||
        { cat "$tmp/check" >&2; fail "$g: check does not warn"; }
done
# The bundled grammars have no such repetition: check stays quiet.
for g in grammars/*.ebnf; do
    "$KPATH" check "$g" 2>&1 | grep -q 'repeated item' && fail "$g: a warning"
done
exit 0
