#!/bin/sh
# Issue 38 item 11: cover -k 2 on a grammar without 2-paths (S := "a" has the
# one 1-path S's literal) writes no input and says why, rather than nothing.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'S := "a";\n' >"$tmp/one.ebnf"
"$KPATH" cover -k 2 "$tmp/one.ebnf" -o "$tmp/out" 2>"$tmp/err" || fail "exit status $?"
grep -q '^note: the grammar has no 2-paths' "$tmp/err" || { cat "$tmp/err" >&2; fail "no note"; }
"$KPATH" cover -k 1 "$tmp/one.ebnf" -o "$tmp/out1" 2>"$tmp/err" || fail "-k 1: exit status $?"
grep -q 'no 1-paths' "$tmp/err" && fail "-k 1: a note"
exit 0
