#!/bin/sh
# bonsai --run whose first batch has fewer than 5 inputs, every one failing
# the same way (issue 32 item 4): that is the program's behaviour, not a
# broken command line: bonsai goes on and exits 0, with no message naming
# its temporary results file (removed at the end).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$KPATH" bonsai -k 1 --max-depth 5 --max-repetitions 2 --max-bytes 32 -j 1 grammars/expr.ebnf \
    --run -- false >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 0 ] || { cat "$tmp/err" >&2; fail "exit status $status"; }
grep -q "same way" "$tmp/err" && { cat "$tmp/err" >&2; fail "a failing-alike message"; }
grep -q "results.jsonl" "$tmp/err" && { cat "$tmp/err" >&2; fail "names a results file"; }
grep -qxF "behaviour features reached: 1 (exit:1)" "$tmp/err" || { cat "$tmp/err" >&2; fail "no exit:1 feature"; }
exit 0
