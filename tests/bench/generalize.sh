#!/bin/sh
# make bench, "generalize": learning a grammar by membership queries
# (kpath grammar-from, then kpath generalize) for two subjects whose valid
# inputs are known:
#   url   build/subjects/url (subjects/url.c), samples tests/bench/generalize/url-*.txt,
#         reference grammar grammars/url.ebnf
#   calc  build/subjects/calc (subjects/calc.c), samples tests/bench/generalize/calc-*.txt,
#         reference grammar grammars/arith.ebnf
# Figures, as the AUTOGRAM paper reports them:
#   soundness     the share of $N inputs generated from the learned grammar
#                 (random strategy, seed 1) that the program accepts;
#   completeness  the share of valid inputs that the learned grammar parses,
#                 over two sets made apart from the samples and the learning:
#                 "typical", written by hand (tests/bench/generalize/SUBJECT-valid.lines,
#                 one input a line, every one accepted by the program), and
#                 "generated", the inputs of $N generated from the reference
#                 grammar (random strategy, seed 2) that the program accepts
#                 (odd corners: IPv6 hosts, %XX, sub-delimiters, deep nesting);
#   queries (distinct runs) and the wall-clock time of generalize.
# Each subject twice: "plain" (grammar-from's concrete grammar generalized)
# and "structure" (generalize --structure: classes, recursion and
# repetitions learned from the samples first, src/infer/structure).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
: "${BUILD:?BUILD must name the build directory}"
N=${N:-200}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
accepted_share() { # program dir -> "A/T"
    a=0 t=0
    for f in "$2"/*.txt; do
        t=$((t + 1))
        timeout 10 "$1" <"$f" >/dev/null 2>&1 && a=$((a + 1))
    done
    echo "$a/$t"
}
parsed_share() { # grammar dir -> "P/T"
    p=0 t=0
    for f in "$2"/*.txt; do
        [ -e "$f" ] || continue
        t=$((t + 1))
        "$KPATH" parse "$1" "$f" >/dev/null 2>&1 && p=$((p + 1))
    done
    echo "$p/$t"
}
pct() { awk -v f="$1" 'BEGIN { split(f, x, "/"); printf "%.1f%%", x[2] ? x[1] * 100 / x[2] : 0 }'; }
printf 'generalize: learned from samples by membership queries (N=%s)\n' "$N"
printf '%-6s %-9s %8s %8s %-18s %-16s %s\n' subject how queries seconds soundness \
    "complete:typical" "complete:generated"
for s in url calc; do
  for how in plain structure; do
    flag=
    [ $how = structure ] && flag=--structure
    prog=$BUILD/subjects/$s
    ref=$root/grammars/$([ $s = url ] && echo url || echo arith).ebnf
    "$KPATH" grammar-from "$here"/generalize/$s-*.txt -o "$tmp/$s-concrete.ebnf" || exit 1
    t0=$(now)
    # shellcheck disable=SC2086
    "$KPATH" generalize $flag "$tmp/$s-concrete.ebnf" "$here"/generalize/$s-*.txt \
        -o "$tmp/$s.ebnf" --timeout 5 -- "$prog" >"$tmp/$s.log" || { tail -5 "$tmp/$s.log"; exit 1; }
    t1=$(now)
    queries=$(tail -1 "$tmp/$s.log" | awk '{ print $1 }')
    rm -rf "$tmp/$s-gen" "$tmp/$s-ref" "$tmp/$s-valid" "$tmp/$s-typical"
    "$KPATH" gen --strategy random -n "$N" --seed 1 -o "$tmp/$s-gen" "$tmp/$s.ebnf" >/dev/null 2>&1 ||
        exit 1
    sound=$(accepted_share "$prog" "$tmp/$s-gen")
    "$KPATH" gen --strategy random -n "$N" --seed 2 -o "$tmp/$s-ref" "$ref" >/dev/null 2>&1 || exit 1
    mkdir "$tmp/$s-valid"
    for f in "$tmp/$s-ref"/*.txt; do
        timeout 10 "$prog" <"$f" >/dev/null 2>&1 && cp "$f" "$tmp/$s-valid/"
    done
    mkdir "$tmp/$s-typical"
    i=0
    while IFS= read -r line; do
        i=$((i + 1))
        printf '%s' "$line" >"$tmp/$s-typical/$i.txt"
    done <"$here/generalize/$s-valid.lines"
    typical=$(parsed_share "$tmp/$s.ebnf" "$tmp/$s-typical")
    generated=$(parsed_share "$tmp/$s.ebnf" "$tmp/$s-valid")
    printf '%-6s %-9s %8s %8.1f %-18s %-16s %s\n' $s $how "$queries" \
        "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
        "$(pct "$sound") ($sound)" "$(pct "$typical") ($typical)" \
        "$(pct "$generated") ($generated)"
  done
done
echo "(the AUTOGRAM paper, for URLs: 100% sound, 50.3% complete; see docs/learning-grammars.md)"
