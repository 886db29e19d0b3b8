#!/bin/sh
# kpath target: inputs for fn:mul_add (reached exactly when an input has a
# binary "+" and a "*", see tests/explain/expr) each contain both k-paths of
# the learned rule, checked by parsing them again; -o writes the files and a
# manifest; a directory that is not empty is refused.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
args="-k 2 --no-balance --feature fn:mul_add grammars/expr.ebnf tests/explain/expr/train.jsonl"
"$KPATH" target -n 6 $args >"$tmp/out" 2>"$tmp/err" || fail "target exited $?: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/out")" = 6 ] || fail "expected 6 inputs, got: $(cat "$tmp/out")"
[ "$(sort -u "$tmp/out" | wc -l)" = 6 ] || fail "inputs repeat"
grep -q 'requires   "\*"_23' "$tmp/err" && grep -q 'requires   "+"_10' "$tmp/err" || fail "report: $(cat "$tmp/err")"
i=0
while IFS= read -r line; do
    i=$((i + 1))
    printf '%s' "$line" >"$tmp/in$i.txt"
    tree=$("$KPATH" parse --symbolic grammars/expr.ebnf "$tmp/in$i.txt") || fail "'$line' does not parse"
    echo "$tree" | grep -q '"+"_10' || fail "'$line' has no binary +"
    echo "$tree" | grep -q '"\*"_23' || fail "'$line' has no *"
done <"$tmp/out"
"$KPATH" target -0 -n 3 $args 2>/dev/null | tr -cd '\000' | wc -c >"$tmp/nuls"
[ "$(cat "$tmp/nuls")" = 3 ] || fail "-0: expected 3 NUL-terminated inputs"
"$KPATH" target -n 3 -o "$tmp/suite" $args 2>"$tmp/err" || fail "target -o exited $?"
[ -f "$tmp/suite/manifest.json" ] || fail "no manifest"
[ "$(ls "$tmp/suite" | grep -c '^000[1-3]\.txt$')" = 3 ] || fail "files: $(ls "$tmp/suite")"
grep -q '"required": \[\[23\], \[10\]\]' "$tmp/suite/manifest.json" || fail "manifest: $(cat "$tmp/suite/manifest.json")"
"$KPATH" target -n 3 -o "$tmp/suite" $args 2>"$tmp/err"
[ $? = 2 ] || fail "a non-empty directory must be refused with status 2"
exit 0
