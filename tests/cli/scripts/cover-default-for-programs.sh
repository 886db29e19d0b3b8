#!/bin/sh
# The default cover suite (issue 33, item 1: greedy packing up to 60 tree
# nodes an input, class characters varied across the suite) still covers
# every k-path: each suite is parsed back by kpath coverage (not the
# generator's bookkeeping) and must hold all of the grammar's k-paths, as
# kpath paths --count counts them.  And its class characters vary: with
# one character per class (the old default) every digit of a JSON suite
# was 0 or 1 and every \u escape \u0000; now at least 3 distinct digits (0, 6 and 9 with seed 1) and no \u0000.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for case in "json.ebnf 2" "json.ebnf 3" "arith.ebnf 2" "arith.ebnf 3" "ini.ebnf 2" "ini.ebnf 3"; do
    set -- $case
    g=grammars/$1 k=$2
    rm -rf "$tmp/s"
    "$KPATH" cover -k "$k" -o "$tmp/s" "$g" >/dev/null 2>"$tmp/err" || fail "$g -k $k: $(cat "$tmp/err")"
    grep -q "^strategy: kpath, close-off greedy packing up to 60 tree nodes an input, k=$k" "$tmp/err" ||
        fail "$g -k $k: the summary does not give the packing bound: $(cat "$tmp/err")"
    total=$("$KPATH" paths -k "$k" --count "$g" 2>/dev/null | tail -n 1)
    "$KPATH" coverage -k "$k" "$g" "$tmp/s" >"$tmp/cov" 2>&1 || fail "$g -k $k: coverage: $(cat "$tmp/cov")"
    grep -q "^total .*k=$k $total/$total (100.0%)" "$tmp/cov" ||
        fail "$g -k $k: not every one of $total k-paths: $(tail -n 2 "$tmp/cov")"
done
rm -rf "$tmp/s"
"$KPATH" cover -k 2 -o "$tmp/s" grammars/json.ebnf >/dev/null 2>&1 || fail "json -k 2"
digits=$(cat "$tmp"/s/*.txt | tr -cd '0-9' | fold -w 1 | sort -u | wc -l | tr -d ' ')
[ "$digits" -ge 3 ] || fail "json -k 2: only $digits distinct digits: $(cat "$tmp"/s/*.txt)"
cat "$tmp"/s/*.txt | grep -q 'u0000' && fail "json -k 2: a \\u0000 escape"
exit 0
