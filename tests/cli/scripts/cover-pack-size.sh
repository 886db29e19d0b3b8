#!/bin/sh
# cover --pack-size N: the greedy close-off packs k-paths into an input only
# while its tree stays within N tree nodes; coverage stays complete.
#
# Worked out by hand on  list := "(" item+ ")" ; item := "a" | "b" | "c" | "d" ;
# (k = 2: the 2-paths item -> "a", ..., item -> "d").  A tree of r items
# has 3r + 4 nodes: the sequence, "(", the + node, per item its reference,
# the alternation and the literal, and ")" ('kpath parse' prints "(a)" as
# 7 lines).  So N allows floor((N - 4) / 3) items, at most
# --max-repetitions 3, each a letter not covered yet:
#   N = 7..9    one letter an input:   (a), (b), (c), (d)
#   N = 10..12  two:                   (ab), (cd)
#   N >= 13     three (the cap):       (abc), (d)  (as without --pack-size)
# The parentheses keep the last pass from splitting the lists (suite_split.h:
# each part would copy them); without them (list := item+) the default suite
# is split into a, b, c, d: the same 4 bytes as "abc d", which --pack-size 0
# (no bound, the fewest inputs) keeps.
# On arith (k = 2) with N at least the largest tree the shortest close-off
# needs for a target, no input's tree exceeds N and every 2-path is still
# covered; the option is refused with another close-off or strategy.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'list := "(" item+ ")" ;\nitem := "a" | "b" | "c" | "d" ;\n' >"$tmp/l.ebnf"
printf '(a)' >"$tmp/a.txt"
[ "$("$KPATH" parse "$tmp/l.ebnf" "$tmp/a.txt" | wc -l)" -eq 7 ] || fail "\"(a)\" is not 7 tree nodes"

suite() { "$KPATH" cover -k 2 "$@" "$tmp/l.ebnf" 2>/dev/null | tr '\n' ' '; }
for n in 7 8 9; do
    [ "$(suite --pack-size "$n")" = "(a) (b) (c) (d) " ] || fail "pack $n: $(suite --pack-size "$n")"
done
for n in 10 11 12; do
    [ "$(suite --pack-size "$n")" = "(ab) (cd) " ] || fail "pack $n: $(suite --pack-size "$n")"
done
for n in 13 16 2000; do
    [ "$(suite --pack-size "$n")" = "(abc) (d) " ] || fail "pack $n: $(suite --pack-size "$n")"
done
[ "$(suite)" = "(abc) (d) " ] || fail "default: $(suite)"
printf 'list := item+ ;\nitem := "a" | "b" | "c" | "d" ;\n' >"$tmp/u.ebnf"
u=$("$KPATH" cover -k 2 "$tmp/u.ebnf" 2>/dev/null | tr '\n' ' ')
[ "$u" = "a b c d " ] || fail "the list without parentheses is not split: $u"
u=$("$KPATH" cover -k 2 --pack-size 0 "$tmp/u.ebnf" 2>/dev/null | tr '\n' ' ')
[ "$u" = "abc d " ] || fail "--pack-size 0 split the list: $u"
# The summary names the bound; the manifest records it.
"$KPATH" cover -k 2 --pack-size 7 "$tmp/l.ebnf" 2>&1 >/dev/null |
    grep -q '^strategy: kpath, close-off greedy packing up to 7 tree nodes an input, k=2' ||
    fail "summary does not name the packing bound"
"$KPATH" cover -k 2 --pack-size 7 --json "$tmp/l.ebnf" 2>/dev/null | grep -q '"pack_size": 7,' ||
    fail "manifest does not record pack_size"

# arith: the largest smallest-close-off tree of a 2-path target.
g=grammars/arith.ebnf
"$KPATH" cover -k 2 --close-off shortest -o "$tmp/short" "$g" 2>/dev/null || fail "shortest"
need=0
for f in "$tmp/short"/*.txt; do
    n=$("$KPATH" parse "$g" "$f" | wc -l)
    [ "$n" -gt "$need" ] && need=$n
done
for n in "$need" 60; do
    rm -rf "$tmp/p"
    "$KPATH" cover -k 2 --pack-size "$n" -o "$tmp/p" "$g" 2>/dev/null || fail "pack $n on arith"
    for f in "$tmp/p"/*.txt; do
        t=$("$KPATH" parse "$g" "$f" | wc -l)
        [ "$t" -le "$n" ] || fail "pack $n: $(basename "$f") has $t tree nodes"
    done
    "$KPATH" coverage -k 2 "$g" "$tmp/p" 2>/dev/null |
        grep -q '^total .*k=2 \([0-9]*\)/\1 (100.0%)' ||
        fail "pack $n: coverage not complete"
    [ "$(ls "$tmp/p" | grep -c '\.txt$')" -gt 2 ] || fail "pack $n: packed as without a bound"
done

for bad in "--close-off shortest" "--close-off random" "--strategy random"; do
    # shellcheck disable=SC2086
    "$KPATH" gen $bad --pack-size 9 "$tmp/l.ebnf" >/dev/null 2>"$tmp/err" && fail "$bad accepted"
    grep -q -- '--pack-size applies to the greedy close-off only' "$tmp/err" || fail "$bad: $(cat "$tmp/err")"
done
exit 0
