#!/bin/sh
# The ambiguity of a learned grammar (issue #35): kpath generalize logs how
# many parse trees each sample has under the grammar it learned, before the
# summary, on the terminal and in --log.  Counted by hand on a grammar the
# run does not change (every generalization off, the oracle `true`):
#   S := x*;  x := "a" | "aa";
# a sample of n letters has as many trees as there are ways to write n as an
# ordered sum of 1s and 2s: "aaaa" 5 (1111 112 121 211 22), "aaa" 3
# (111 12 21), "a" 1.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' 'S := x*;' 'x := "a" | "aa";' >"$tmp/g.ebnf"
printf 'aaaa' >"$tmp/four.txt"
printf 'aaa' >"$tmp/three.txt"
printf 'a' >"$tmp/one.txt"
(cd "$tmp" && "$KPATH" generalize g.ebnf four.txt three.txt one.txt -o out.ebnf --log log \
    --no-strings --no-repetitions --no-optional -- true >out 2>err) ||
    { cat "$tmp/err"; fail "exit status"; }
want="parse trees of each sample under the grammar learned: four.txt 5, three.txt 3, one.txt 1"
tail -2 "$tmp/out" | head -1 | grep -qxF "$want" ||
    fail "the trees line: $(tail -2 "$tmp/out" | head -1)"
tail -1 "$tmp/log" | grep -qxF "$want" || fail "--log has no trees line"
tail -1 "$tmp/out" | grep -q '^3 queries' || fail "the summary is not last: $(tail -1 "$tmp/out")"
exit 0
