#!/bin/sh
# The report of `kpath run`, checked against independent computations: the
# k-path coverage of the inputs is what `kpath coverage` says; the correlation
# is Pearson's r computed here with awk from each input's k-paths (`kpath
# coverage`, per file) and its number of features (counted in the results
# file).  By hand: of the inputs "1" and "1+1", the second has every k-path
# of the first, so the k-path suite is that one input, with its 7 features
# (exit:0, main, parse_expr, parse_term, parse_factor, parse_number, add),
# and one random input of the two reaches 6 or 7, so between them on average.
# The suite uses the shortest close-off: many small inputs, so that r is
# measured over more than a handful of points.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
build=$(dirname "$KPATH")
calc=$build/subjects/calc
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$KPATH" cover -k 2 --close-off shortest --start Expr grammars/arith.ebnf -o "$tmp/suite" 2>/dev/null || fail "cover"
"$KPATH" run -q -j 2 --gcov "$build/subjects" --results "$tmp/r.jsonl" --start Expr \
    grammars/arith.ebnf "$tmp/suite" -- "$calc" >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "run: exit status $?"; }
"$KPATH" run --report "$tmp/r.jsonl" -k 2 --start Expr >"$tmp/report" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "report: exit status $?"; }

# Coverage: the same as kpath coverage's total.
"$KPATH" coverage -k 2 --start Expr grammars/arith.ebnf "$tmp/suite" >"$tmp/cov" 2>/dev/null ||
    fail "coverage"
total=$(grep '^total' "$tmp/cov")
k1=$(echo "$total" | sed 's/.*k=1 \([0-9]*\/[0-9]*\).*/\1/')
k2=$(echo "$total" | sed 's/.*k=2 \([0-9]*\/[0-9]*\).*/\1/')
grep -q "^   1  $k1 " "$tmp/report" || { cat "$tmp/report" >&2; fail "k=1 coverage is not $k1"; }
grep -q "^   2  $k2 " "$tmp/report" || { cat "$tmp/report" >&2; fail "k=2 coverage is not $k2"; }

# Pearson's r, independently: x from kpath coverage per file, y from the records.
for f in "$tmp"/suite/*.txt; do
    line=$(grep -F "\"input\":\"$f\"" "$tmp/r.jsonl")
    y=$(echo "$line" | sed 's/.*"features":\[\(.*\)\]}$/\1/' | tr ',' '\n' | grep -c .)
    c=$(grep -F "$f:" "$tmp/cov")
    x1=$(echo "$c" | sed 's/.*k=1 \([0-9]*\)\/.*/\1/')
    x2=$(echo "$c" | sed 's/.*k=2 \([0-9]*\)\/.*/\1/')
    echo "$x1 $x2 $y"
done >"$tmp/xy"
[ "$(wc -l <"$tmp/xy")" -gt 10 ] || fail "too few inputs"
pearson() {
    awk -v col="$1" '{ x = $col; y = $3; n++; sx += x; sy += y; sxx += x*x; syy += y*y; sxy += x*y }
        END { cov = sxy - sx*sy/n; vx = sxx - sx*sx/n; vy = syy - sy*sy/n;
              printf "%.2f", cov / sqrt(vx * vy) }' "$tmp/xy"
}
r1=$(pearson 1)
r2=$(pearson 2)
row1=$(grep "^   1  " "$tmp/report" | awk '{print $4}')
row2=$(grep "^   2  " "$tmp/report" | awk '{print $4}')
[ "$row1" = "$r1" ] || { cat "$tmp/report" >&2; fail "k=1: r is $row1, awk says $r1"; }
[ "$row2" = "$r2" ] || { cat "$tmp/report" >&2; fail "k=2: r is $row2, awk says $r2"; }

# The suite against random inputs, by hand.
mkdir "$tmp/two"
printf '1' >"$tmp/two/a"
printf '1+1' >"$tmp/two/b"
"$KPATH" run -j 1 --gcov "$build/subjects" --results "$tmp/two.jsonl" --start Expr \
    grammars/arith.ebnf "$tmp/two" -- "$calc" >"$tmp/report2" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "two: exit status $?"; }
for k in 1 2 3; do
    row=$(grep "^   $k  " "$tmp/report2")
    suite=$(echo "$row" | awk '{print $5, $6}')
    [ "$suite" = "1 7" ] || { cat "$tmp/report2" >&2; fail "k=$k: suite and its features '$suite', expected '1 7'"; }
    random=$(echo "$row" | awk '{print $7}')
    awk -v r="$random" 'BEGIN { exit !(r > 6 && r < 7) }' || fail "k=$k: random mean $random not between 6 and 7"
done
grep -qxF "  $tmp/two/a  exit:0  5: fn:main fn:parse_expr fn:parse_factor fn:parse_number fn:parse_term" \
    "$tmp/report2" || { cat "$tmp/report2" >&2; fail "per-input line of a"; }
grep -qxF "  $tmp/two/b  exit:0  6: fn:add fn:main fn:parse_expr fn:parse_factor fn:parse_number fn:parse_term" \
    "$tmp/report2" || { cat "$tmp/report2" >&2; fail "per-input line of b"; }

# The start rule comes from the results' header; --json gives the same figures.
grep -qF '"start":"Expr"' "$tmp/two.jsonl" || fail "the header has no start rule"
"$KPATH" run --report "$tmp/two.jsonl" --json -k 1 >"$tmp/json" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "--json report: exit status $?"; }
[ -s "$tmp/err" ] && { cat "$tmp/err" >&2; fail "--report did not take the start rule from the header"; }
grep -qF '{"outcome": "exit:0", "count": 2, "smallest": "'"$tmp/two/a"'", "smallest_size": 1}' "$tmp/json" ||
    { cat "$tmp/json" >&2; fail "--json: outcomes"; }
grep -qE '^    \{"k": 1, "covered": [0-9]+, "total": 35, "saturated": false, "correlation": 1\.000000, "suite": 1, "suite_features": 7, "random_features": 6\.[0-9]+\}$' "$tmp/json" ||
    { cat "$tmp/json" >&2; fail "--json: the k=1 row"; }

# --report with a grammar that is not the one of the results.
"$KPATH" run --report "$tmp/two.jsonl" grammars/expr.ebnf >/dev/null 2>"$tmp/err"
[ $? = 2 ] || fail "wrong grammar: exit status"
grep -qxF "kpath run: error: grammars/expr.ebnf is not the grammar the results were made with (its SHA-256 differs from the results' grammar_sha256)" \
    "$tmp/err" || { cat "$tmp/err" >&2; fail "wrong grammar: message"; }
exit 0
