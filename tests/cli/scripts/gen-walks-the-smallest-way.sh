#!/bin/sh
# Issue 10.1: the kpath strategy's walk towards a target takes the smallest
# way, not the shallowest (tests/grammars/ok/smallest-way.ebnf works the two
# ways out).  With the shortest close-off, "u" and "v" appear only in the
# inputs made for them, so those inputs are "u" and "v" alone, never "abcdu"
# or "abcdv" (what a depth-first walk made).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=tests/grammars/ok/smallest-way.ebnf
for cmd in "gen -k 1" "cover -k 1 --keep-redundant"; do
    # shellcheck disable=SC2086
    "$KPATH" $cmd --close-off shortest $g >"$tmp/out" 2>"$tmp/err" || fail "$cmd: $(cat "$tmp/err")"
    grep -qx u "$tmp/out" && grep -qx v "$tmp/out" || fail "$cmd: no input u and v alone: $(cat "$tmp/out")"
    grep -q 'abcd[uv]' "$tmp/out" && fail "$cmd: a walk took the shallow way: $(cat "$tmp/out")"
done
exit 0
