#!/bin/sh
# A suite written by `kpath cover -o DIR` parses back: `kpath coverage` on DIR
# (manifest.json skipped) measures the same full k-path coverage that cover
# reported, for each grammar measured from parse forests rather than from the
# generator's own trees.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for g in expr json csv url arith; do
    "$KPATH" cover -k 2 --start "$(case $g in expr | arith) echo Expr ;; json) echo json ;;
        csv) echo file ;; url) echo URI ;; esac)" "grammars/$g.ebnf" -o "$tmp/$g" 2>"$tmp/cover.err" ||
        fail "cover $g: status $?"
    want=$(grep '^  k=2: ' "$tmp/cover.err" | sed 's/^  k=2: //')
    "$KPATH" coverage -k 2 --start "$(case $g in expr | arith) echo Expr ;; json) echo json ;;
        csv) echo file ;; url) echo URI ;; esac)" "grammars/$g.ebnf" "$tmp/$g" >"$tmp/out" 2>"$tmp/err" ||
        fail "coverage $g: status $?: $(cat "$tmp/err")"
    got=$(sed -n 's/^total ([0-9]* files\{0,1\}): k=1 [^,]*, k=2 //p' "$tmp/out")
    [ -n "$want" ] && [ "$got" = "$want" ] || fail "$g: cover says '$want', coverage says '$got'"
done
exit 0
