#!/bin/sh
# Issue 32, item 5: bonsai's depth axis leaves coverage out of reach, and it
# must say so, with the depth needed, as cover does.  On arith at
# --max-depth 5, the 2-paths bonsai leaves uncovered are exactly those kpath
# cover (an independent computation: its generator's plan) reports as
# needing more depth at the same limit, and the deepest of them needs what
# cover says; at that depth bonsai covers every 2-path and says nothing.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=grammars/arith.ebnf
"$KPATH" cover -k 2 --max-depth 5 $g 2>"$tmp/cover" >/dev/null || fail "cover"
n=$(grep -c 'needs depth' "$tmp/cover")
deepest=$(sed -n 's/.*needs depth \([0-9]*\) .*/\1/p' "$tmp/cover" | sort -n | tail -n 1)
[ "$n" -gt 0 ] || fail "cover finds nothing out of reach: $(cat "$tmp/cover")"
"$KPATH" bonsai -k 2 --max-depth 5 -o "$tmp/b5" $g 2>"$tmp/err5" || fail "bonsai 5: $(cat "$tmp/err5")"
grep -qxF "out of reach: $n of the $n uncovered 2-paths need a tree deeper than --max-depth 5: the deepest needs depth $deepest (--max-depth $deepest reaches them)" "$tmp/err5" ||
    fail "expected $n out of reach, depth $deepest: $(cat "$tmp/err5")"
"$KPATH" bonsai -k 2 --max-depth "$deepest" -o "$tmp/b8" $g 2>"$tmp/err8" || fail "bonsai $deepest"
total=$("$KPATH" paths -k 2 --count $g 2>/dev/null)
grep -q "^coverage: k=1 [0-9]*/[0-9]*, k=2 $total/$total\$" "$tmp/err8" || fail "not all at depth $deepest ($total): $(cat "$tmp/err8")"
! grep -q 'out of reach' "$tmp/err8" || fail "out of reach at depth $deepest: $(cat "$tmp/err8")"
exit 0
