#!/bin/sh
# cover --recurrent -n N: exactly N inputs, in more than one round (a full
# cover of expr at k = 1 takes 8 inputs: fewer than 20), the second round's
# inputs are not the first round's, and the same seed gives the same inputs.
# Without --recurrent, -n 20 stops at full coverage, with fewer inputs.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$KPATH" cover -k 1 --recurrent -n 20 --json grammars/expr.ebnf >"$tmp/a" 2>"$tmp/err" ||
    { cat "$tmp/err"; exit 1; }
n=$(grep -c '"round": ' "$tmp/a")
[ "$n" = 20 ] || { echo "$n inputs, not 20"; exit 1; }
grep -q '^inputs: 20, ' "$tmp/err" || { cat "$tmp/err"; exit 1; }
grep -q '^  k=1: 39/39 (100.0%)$' "$tmp/err" || { cat "$tmp/err"; exit 1; }
grep '"round": 1,' "$tmp/a" | sed 's/.*"text": //; s/, "target".*//' | sort >"$tmp/round1"
grep '"round": 2,' "$tmp/a" | sed 's/.*"text": //; s/, "target".*//' | sort >"$tmp/round2"
[ -s "$tmp/round1" ] && [ -s "$tmp/round2" ] || { echo "not two rounds"; cat "$tmp/err"; exit 1; }
if cmp -s "$tmp/round1" "$tmp/round2"; then
    echo "the second round repeats the first"; exit 1
fi
"$KPATH" cover -k 1 --recurrent -n 20 --json grammars/expr.ebnf >"$tmp/b" 2>/dev/null || exit 1
cmp -s "$tmp/a" "$tmp/b" || { echo "the same seed gave other inputs"; exit 1; }
"$KPATH" cover -k 1 -n 20 grammars/expr.ebnf >"$tmp/plain" 2>/dev/null || exit 1
[ "$(wc -l <"$tmp/plain")" -lt 20 ] || { echo "plain cover made 20 inputs"; exit 1; }
# --minutes: the clock is read between trees, so at least one input.
"$KPATH" cover -k 1 --recurrent --minutes 0.0001 grammars/expr.ebnf >"$tmp/timed" 2>"$tmp/err" ||
    { cat "$tmp/err"; exit 1; }
[ -s "$tmp/timed" ] || { echo "--minutes made no input"; exit 1; }
grep -q '^bounds: .*--minutes 0.0001$' "$tmp/err" || { cat "$tmp/err"; exit 1; }
exit 0
