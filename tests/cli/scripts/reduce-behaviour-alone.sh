#!/bin/sh
# kpath reduce -k 0 --results keeps behaviour alone (issue 32, item 5): three
# inputs of expr, "1" and "1+2" reach f1, "(3)" reaches f2.  Every feature is
# kept by "1" (fewest bytes for f1) and "(3)"; -k 2 keeps "1+2" instead of
# "1" (its k-paths include those of "1", and more).  -k 0 without --results
# has nothing to keep and is refused.  A results file recorded with another
# grammar (grammar_sha256) is warned about, as explain does.  An empty input
# of ini (no k-path at all) is reduced without undefined behaviour (issue 38,
# item 8: qsort of an empty list; the sanitized suite catches it).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/in"
printf 1 >"$tmp/in/a"
printf 1+2 >"$tmp/in/b"
printf '(3)' >"$tmp/in/c"
sha=$(sha256sum grammars/expr.ebnf | cut -d' ' -f1)
results() { # GRAMMAR_SHA256
    echo "{\"kpath_results\":1,\"grammar_sha256\":\"$1\",\"command\":[\"true\"],\"collect\":[\"outcome\"]}"
    echo "{\"input\":\"$tmp/in/a\",\"outcome\":\"exit:0\",\"features\":[\"f1\"]}"
    echo "{\"input\":\"$tmp/in/b\",\"outcome\":\"exit:0\",\"features\":[\"f1\"]}"
    echo "{\"input\":\"$tmp/in/c\",\"outcome\":\"exit:0\",\"features\":[\"f2\"]}"
}
results "$sha" >"$tmp/same.jsonl"
results 0000000000000000000000000000000000000000000000000000000000000000 >"$tmp/other.jsonl"

"$KPATH" reduce -k 0 --results "$tmp/same.jsonl" grammars/expr.ebnf "$tmp/in" \
    >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; fail "-k 0 refused"; }
grep -q '^kept 2 of 3 inputs' "$tmp/out" || { cat "$tmp/out"; fail "-k 0 should keep 2"; }
grep -q "^  $tmp/in/a " "$tmp/out" || { cat "$tmp/out"; fail "-k 0 keeps a"; }
grep -q "^  $tmp/in/c " "$tmp/out" || { cat "$tmp/out"; fail "-k 0 keeps c"; }
[ -s "$tmp/err" ] && { cat "$tmp/err"; fail "no warning expected with the same grammar"; }

"$KPATH" reduce -k 2 --results "$tmp/same.jsonl" grammars/expr.ebnf "$tmp/in" \
    >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; fail "-k 2"; }
grep -q '^kept 2 of 3 inputs' "$tmp/out" || { cat "$tmp/out"; fail "-k 2 should keep 2"; }
grep -q "^  $tmp/in/b " "$tmp/out" || { cat "$tmp/out"; fail "-k 2 keeps b"; }

"$KPATH" reduce -k 0 grammars/expr.ebnf "$tmp/in" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] || fail "-k 0 without --results should be a usage error"
grep -q 'it needs --results' "$tmp/err" || { cat "$tmp/err"; fail "-k 0 message"; }

"$KPATH" reduce -k 0 --results "$tmp/other.jsonl" grammars/expr.ebnf "$tmp/in" \
    >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; fail "other grammar"; }
grep -q 'warning: recorded with another grammar than grammars/expr.ebnf' "$tmp/err" ||
    { cat "$tmp/err"; fail "no warning for a results file of another grammar"; }

: >"$tmp/empty.ini"
"$KPATH" reduce -k 2 grammars/ini.ebnf "$tmp/empty.ini" >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err"; fail "empty ini input"; }
grep -q '^kept' "$tmp/out" || { cat "$tmp/out"; fail "empty ini report"; }
if grep -q 'runtime error' "$tmp/err"; then cat "$tmp/err"; fail "undefined behaviour"; fi
exit 0
