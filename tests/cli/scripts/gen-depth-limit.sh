#!/bin/sh
# --max-depth: the kpath strategy builds no tree deeper than the limit and
# reports every k-path that needs more, with the depth it needs; a limit
# below the smallest input's depth is an error.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# Every input of config.ebnf has depth 4 (references config, os, processor,
# browser on each root-to-leaf path), so with a limit of 3 there is no
# input at all: refused like a smallest input over --max-size (exit 2),
# naming the depth needed, rather than an empty suite.
"$KPATH" cover -k 1 --max-depth 3 grammars/config.ebnf >"$tmp/out" 2>"$tmp/err"
status=$?
[ $status = 2 ] || fail "config.ebnf at depth 3: exit status $status, expected 2"
[ -s "$tmp/out" ] && fail "inputs printed although none fits depth 3"
[ "$(cat "$tmp/err")" = "kpath cover: error: the smallest input needs depth 4, more than the depth limit (--max-depth 3); raise it: --max-depth 4" ] ||
    fail "config.ebnf at depth 3: $(cat "$tmp/err")"
# At depth 4 every 1-path is covered.
"$KPATH" cover -k 1 --max-depth 4 grammars/config.ebnf >"$tmp/out" 2>"$tmp/err" ||
    fail "config.ebnf at depth 4: exit status $?"
grep -qx '  k=1: 16/16 (100.0%)' "$tmp/err" || fail "config.ebnf at depth 4: coverage line"

# expr.ebnf with a limit of 5: every input within it, every reported k-path
# needs more than 5, and covered + reported = all 125 2-paths.
"$KPATH" cover --max-depth 5 --json grammars/expr.ebnf >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "expr: exit status $?"; }
deepest=$(grep -o '"depth": [0-9]*' "$tmp/out" | cut -d' ' -f2 | sort -n | tail -1)
[ -n "$deepest" ] && [ "$deepest" -le 5 ] || fail "an input has depth $deepest > 5"
grep ' needs depth ' "$tmp/err" | sed 's/.* needs depth \([0-9]*\) (limit 5)$/\1/' >"$tmp/needs"
while read -r need; do
    [ "$need" -gt 5 ] || fail "a k-path reported as needing depth $need (limit 5)"
done <"$tmp/needs"
covered=$(sed -n 's|^  k=2: \([0-9]*\)/125 .*|\1|p' "$tmp/err")
reported=$(wc -l <"$tmp/needs")
[ -n "$covered" ] && [ $((covered + reported)) -eq 125 ] ||
    fail "covered ($covered) + needing more depth ($reported) != 125"
grep -q 'note:' "$tmp/err" && fail "the trees and the generator disagree"
exit 0
