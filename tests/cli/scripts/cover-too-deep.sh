#!/bin/sh
# A grammar whose smallest input is deeper than --max-depth: no strategy has
# an input within the limit, so gen_new refuses it (exit 2) naming the depth
# needed and the option, as it refuses a smallest input over --max-size;
# formerly `cover` wrote 0 inputs and exited 0 without a word.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# auxilary -> a1 -> ... -> a21 -> "x": 21 reference nodes (a1..a21) on the
# only root-to-leaf path, so the one input "x" needs depth 21.
{
    echo 'auxilary := a1;'
    i=1
    while [ $i -le 20 ]; do echo "a$i := a$((i + 1));"; i=$((i + 1)); done
    echo 'a21 := "x";'
} >"$tmp/chain.ebnf"
want='error: the smallest input needs depth 21, more than the depth limit (--max-depth 16); raise it: --max-depth 21'
for cmd in cover "gen --strategy random -n 3" "gen --strategy coverage"; do
    $KPATH $cmd -k 2 --start auxilary "$tmp/chain.ebnf" -o "$tmp/d" >"$tmp/out" 2>"$tmp/err"
    status=$?
    [ $status = 2 ] || fail "$cmd: exit status $status, expected 2"
    [ "$(cat "$tmp/err")" = "kpath ${cmd%% *}: $want" ] || fail "$cmd: $(cat "$tmp/err")"
    [ -s "$tmp/out" ] && fail "$cmd: printed something"
    [ -z "$(ls -A "$tmp/d" 2>/dev/null)" ] || fail "$cmd: wrote files"
    rm -rf "$tmp/d"
done
# At depth 20 the same; at 21 the one input.
$KPATH cover -k 2 --max-depth 20 --start auxilary "$tmp/chain.ebnf" >/dev/null 2>"$tmp/err" &&
    fail "--max-depth 20: exit status 0"
grep -q 'needs depth 21, more than the depth limit (--max-depth 20)' "$tmp/err" || fail "--max-depth 20: $(cat "$tmp/err")"
[ "$($KPATH cover -k 2 --max-depth 21 --start auxilary "$tmp/chain.ebnf" 2>"$tmp/err")" = x ] ||
    fail "--max-depth 21: $(cat "$tmp/err")"
grep -qx '  k=2: 21/21 (100.0%)' "$tmp/err" || fail "--max-depth 21: k=2 line: $(grep k=2 "$tmp/err")"
exit 0
