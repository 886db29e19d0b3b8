#!/bin/sh
# Inputs go to stdout as they are made when none can be dropped at the end
# (issue 17.3): a recurrent run meant to last ten minutes has its first input
# on the pipe at once, and ends on the closed pipe (SIGPIPE) when the reader
# has it.  Without streaming nothing arrives before the timeout kills it.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
timeout -s KILL 60 "$KPATH" gen --recurrent --minutes 10 -k 1 grammars/expr.ebnf 2>"$tmp/err" |
    head -n 1 >"$tmp/first"
[ -s "$tmp/first" ] || fail "recurrent gen: no input on stdout before it was killed"
# A streamed run still ends at exactly -n N inputs.
"$KPATH" gen --recurrent -n 5 -k 1 grammars/expr.ebnf >"$tmp/streamed" 2>"$tmp/err" ||
    fail "gen -n 5: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/streamed" | tr -d ' ')" = 5 ] || fail "gen -n 5: $(cat "$tmp/streamed")"
# cover drops redundant inputs at the end, so it writes them all at the end;
# with --keep-redundant it streams; both give their inputs in the same order.
"$KPATH" cover -k 2 --keep-redundant grammars/json.ebnf >"$tmp/kept" 2>"$tmp/err" ||
    fail "cover --keep-redundant: $(cat "$tmp/err")"
"$KPATH" cover -k 2 --keep-redundant -o "$tmp/suite" grammars/json.ebnf >/dev/null 2>"$tmp/err" ||
    fail "cover --keep-redundant -o: $(cat "$tmp/err")"
for f in "$tmp"/suite/*.txt; do cat "$f"; echo; done >"$tmp/files"
cmp -s "$tmp/kept" "$tmp/files" || fail "cover --keep-redundant: streamed inputs differ from the suite's"
exit 0
