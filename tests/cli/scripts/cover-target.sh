#!/bin/sh
# cover --target: the suite covers every k-path listed in the file (checked by
# kpath coverage, which parses the inputs), every input was made for one of
# them (the manifest's targets, by id: AddExpr_0 = 0, MultExpr_7 = 7,
# MultExpr_2 = 2, "/"_24 = 24, MultExpr_13 = 13), and the summary counts the
# three distinct targets (the file lists one twice, and a comment and a blank
# line).  A full cover of expr at k = 2 needs more inputs than three.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
targets=tests/grammars/targets/expr-three.txt
for closeoff in greedy shortest random; do
    rm -rf "$tmp/suite"
    "$KPATH" cover --close-off $closeoff --target $targets grammars/expr.ebnf -o "$tmp/suite" \
        2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
    grep -q "^targets: $targets, 3 2-paths, 3 covered\$" "$tmp/err" || { cat "$tmp/err"; exit 1; }
    "$KPATH" coverage --uncovered -k 2 grammars/expr.ebnf "$tmp/suite" >"$tmp/uncovered" \
        2>/dev/null
    grep -v '^#' $targets | grep . | sed 's/^ *//' >"$tmp/wanted"
    if grep -Fxf "$tmp/wanted" "$tmp/uncovered"; then
        echo "$closeoff: the targets above are not covered"; exit 1
    fi
    grep -o '"target": \[[0-9, ]*\]' "$tmp/suite/manifest.json" | sort -u >"$tmp/made-for"
    [ -s "$tmp/made-for" ] || { echo "$closeoff: no input names its target"; exit 1; }
    if grep -v -x -e '"target": \[0, 7\]' -e '"target": \[2, 24\]' -e '"target": \[13, 24\]' \
        "$tmp/made-for"; then
        echo "$closeoff: inputs made for k-paths that are not targets (above)"; exit 1
    fi
    n=$(ls "$tmp/suite" | grep -c '^[0-9]*\.txt$')
    [ "$n" -ge 1 ] && [ "$n" -le 3 ] || { echo "$closeoff: $n inputs for 3 targets"; exit 1; }
done
exit 0
