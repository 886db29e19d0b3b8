#!/bin/sh
# Issue 38 item 11: cover says which stage a long run is in, not only how
# many inputs it has made: on big grammars preparing the generator,
# choosing the suite and measuring its coverage take most of the time.
# With --progress (off a terminal, so one line each) the stages come in
# order, with figures checked against kpath info (the graph's nodes) and
# the suite written (the inputs measured).  A run this short, off a
# terminal and without --progress, says nothing: the note of a long run
# comes only after 10 s.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=grammars/json.ebnf
nodes=$("$KPATH" info $g | sed -n 's/^nodes: \([0-9]*\) .*/\1/p')
[ -n "$nodes" ] || fail "kpath info gives no node count"
"$KPATH" cover --progress -k 2 -o "$tmp/out" $g 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "cover failed"; }
written=$(ls "$tmp/out" | grep -c '^[0-9]*\.txt$')
made=$(grep 'inputs\{0,1\} made' "$tmp/err" | tail -n 1 | sed 's/^cover: \([0-9]*\) .*/\1/')
# the stage lines, in order, with the progress lines between them left out
grep -v 'inputs\{0,1\} made' "$tmp/err" | sed -n '1,3p' >"$tmp/stages"
printf '%s\n' "cover: preparing the generator (a graph of $nodes nodes, k=2)" \
    "cover: choosing the suite among $made inputs" \
    "cover: measuring the coverage of $written inputs" >"$tmp/want"
cmp -s "$tmp/stages" "$tmp/want" || { diff "$tmp/want" "$tmp/stages" >&2; fail "the stages"; }
# the inputs are made between preparing and choosing
sed -n 1p "$tmp/err" | grep -q '^cover: preparing' || fail "the first line is not the preparation"
sed -n 2p "$tmp/err" | grep -q 'inputs\{0,1\} made' || fail "no inputs made after preparing"
"$KPATH" cover -k 2 -o "$tmp/quiet" $g 2>"$tmp/err" || fail "cover without --progress failed"
grep -q '^cover: \(preparing\|choosing\|measuring\|still\)' "$tmp/err" &&
    { cat "$tmp/err" >&2; fail "stages said off a terminal without --progress"; }
exit 0
