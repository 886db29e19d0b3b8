#!/bin/sh
# A missing grammar file: every command that reads one suggests the closest
# name in the directory as the user typed it (src/base/file_hint.c), relative
# as typed, never turned absolute.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd tests || exit 1
for cmd in info check paths cover "gen -n 1" graph convert; do
    $KPATH $cmd ../grammars/exp.ebnf >/dev/null 2>"$tmp/err"
    status=$?
    msg=$(cat "$tmp/err")
    [ $status = 2 ] || fail "$cmd: exit status $status"
    [ "$msg" = "../grammars/exp.ebnf: error: cannot read: No such file or directory; did you mean ../grammars/expr.ebnf?" ] ||
        fail "$cmd: $msg"
done
# Nothing close: no suggestion.
$KPATH info ../grammars/zzzzzzzzzzzzzzzzzzzz.ebnf 2>"$tmp/err" && fail "zzz: exit status 0"
msg=$(cat "$tmp/err")
[ "$msg" = "../grammars/zzzzzzzzzzzzzzzzzzzz.ebnf: error: cannot read: No such file or directory" ] ||
    fail "zzz: $msg"
exit 0
