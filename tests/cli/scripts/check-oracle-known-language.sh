#!/bin/sh
# check-oracle against oracles whose language is known exactly, so the
# answers are worked out by hand from the grammar, not taken from kpath:
#  - grammars/expr.ebnf with an oracle that rejects every input containing
#    "/": the only 1-path no accepted input has is the literal "/" (node 24),
#    and the only such 2-paths are the three that end in it (the three
#    references to MultExpr, nodes 2, 7 and 13, each followed by "/").  The
#    per-k soundness is checked against the suites themselves: the files
#    without "/" (counted by grep) out of the files kpath wrote.
#  - an oracle that hangs on "%" (killed by --timeout: invalid) and exits 3
#    otherwise (--valid-exit 3), on given inputs.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=grammars/expr.ebnf
out=$tmp/o
"$KPATH" check-oracle $g -k 2 -j 2 -o "$out" -- sh -c '! grep -q /' >"$tmp/report" 2>"$tmp/err" ||
    { cat "$tmp/err"; fail "exit status $?"; }
cat "$tmp/report"
for k in 1 2; do
    n=$(ls "$out/k$k" | grep -c '\.txt$')
    rejected=$(grep -l / "$out/k$k"/*.txt | wc -l)
    [ "$rejected" -ge 1 ] || fail "the $k-path suite has no input with /"
    accepted=$((n - rejected))
    pct=$(awk "BEGIN { printf \"%.1f\", $accepted * 100 / $n }")
    grep -qxF "  k=$k    $accepted/$n ($pct%)" "$tmp/report" || fail "soundness of k=$k is not $accepted/$n"
done
# The k-paths only rejected inputs have: exactly these.
sed -n '/^rejected 1-paths/,/^acceptance/p' "$tmp/report" | grep -E '^  [^ ]' >"$tmp/paths"
printf '%s\n' '  "/"_24' '  MultExpr_2 -> "/"_24' '  MultExpr_7 -> "/"_24' '  MultExpr_13 -> "/"_24' >"$tmp/want"
diff "$tmp/want" "$tmp/paths" || fail "rejected k-paths differ"
grep -qxF '  k=1  covered 39/39, in an accepted input 38, only in rejected inputs 1' "$tmp/report" || fail "k=1 line"
grep -qxF '  k=2  covered 125/125, in an accepted input 122, only in rejected inputs 3' "$tmp/report" || fail "k=2 line"
# Patterns, by the definition in src/graph/pattern.h.
grep -qxF '    pattern: MultExpr / UnaryExpr' "$tmp/report" || fail "pattern of /"
grep -qxF '    pattern: MultExpr / UnaryExpr (* | / | %) UnaryExpr' "$tmp/report" || fail "pattern of MultExpr_13 -> /"
# The smallest rejected input of "/": 3 bytes (x/x with shortest close-off), and it does contain "/".
line=$(grep -A2 '^  "/"_24$' "$tmp/report" | sed -n 3p)
small=$(echo "$line" | sed -n 's/.*smallest: \(.*\) (3 bytes)$/\1/p')
[ -n "$small" ] || fail "smallest rejected input of / is not 3 bytes: $line"
grep -q / "$small" || fail "$small has no /"
# Digits never meet "/" in a shortest suite: every input using them is accepted.
grep -qE '^  DecDigit +([0-9]+)/\1 \(100\.0%\)$' "$tmp/report" || fail "DecDigit is not 100%"
# Every query is logged: one record per file written.
total=$(ls "$out"/k1/*.txt "$out"/k2/*.txt | wc -l)
[ "$(grep -c '"input"' "$out/queries.jsonl")" = "$total" ] || fail "the log does not have $total queries"
# The same directory again is refused (nothing of an earlier check mixes in), --force replaces.
"$KPATH" check-oracle $g -o "$out" -- true >/dev/null 2>"$tmp/err" && fail "non-empty output accepted"
grep -q "not empty" "$tmp/err" || { cat "$tmp/err"; fail "no message for a non-empty output"; }
"$KPATH" check-oracle $g -k 1 -f -o "$out" -- true >"$tmp/report" 2>"$tmp/err" || fail "--force"
n1=$(ls "$out/k1" | grep -c '\.txt$')
grep -qxF "  k=1    $n1/$n1 (100.0%)" "$tmp/report" || fail "--force run is not all accepted"
[ "$(grep -c '"input"' "$out/queries.jsonl")" = "$n1" ] || fail "--force kept the old log"

# Given inputs; exit 3 is valid, "%" hangs (timeout: invalid), "*" exits 0 (not valid here).
# The timeout is 3 s, far below the hang (30 s) and far above a shell
# start-up on a machine busy with other builds (300 ms timed out there).
mkdir "$tmp/in"
printf 'x%%y' >"$tmp/in/a"; printf 'x+y' >"$tmp/in/b"; printf 'x*1' >"$tmp/in/c"; printf '12' >"$tmp/in/d"
cat >"$tmp/oracle" <<'SH'
#!/bin/sh
input=$(cat)
case $input in *%*) sleep 30;; *'*'*) exit 0;; esac
exit 3
SH
chmod +x "$tmp/oracle"
"$KPATH" check-oracle $g -k 1 -j 2 --timeout 3s --valid-exit 3 -o "$tmp/o2" "$tmp/in" -- "$tmp/oracle" \
    >"$tmp/report" 2>"$tmp/err" || { cat "$tmp/err"; fail "given inputs: exit status"; }
cat "$tmp/report"
grep -qxF '  given  2/4 (50.0%)' "$tmp/report" || fail "given soundness"
grep -qxF "    rejected inputs: 1, smallest: $tmp/in/a (3 bytes)" "$tmp/report" || fail "% smallest"
grep -q '"input":"[^"]*/in/a",.*"outcome":"timeout"' "$tmp/o2/queries.jsonl" || fail "the hanging query is not logged as a timeout"
# Rejected 1-paths: "%" and "*", and the references of the multiplicative
# alternative (MultExpr_13, UnaryExpr_15): only a and c, both rejected, have
# them; not "+" or the digits (b and d are accepted).
sed -n '/^rejected 1-paths/,/^acceptance/p' "$tmp/report" | grep -E '^  [^ ]' >"$tmp/paths"
printf '%s\n' '  MultExpr_13' '  UnaryExpr_15' '  "*"_23' '  "%"_25' >"$tmp/want"
diff "$tmp/want" "$tmp/paths" || fail "given: rejected 1-paths differ"
# Per rule: digits are in c (rejected) and d (accepted); identifiers in a, b, c (b accepted).
grep -qE '^  DecDigits +1/2 \(50\.0%\)$' "$tmp/report" || fail "DecDigits rate"
grep -qE '^  Identifier +1/3 \(33\.3%\)$' "$tmp/report" || fail "Identifier rate"
exit 0
