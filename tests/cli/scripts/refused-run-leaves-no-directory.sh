#!/bin/sh
# A refused run with -o DIR leaves nothing new behind: DIR (and the parents
# mkdir -p would make) is created only once the run is known to go ahead.
# Formerly gen, cover, reduce and check-oracle created DIR first, then
# refused (depth, size, a bad pin, an input that does not parse), leaving
# an empty DIR.  A directory that existed before is never removed.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=grammars/expr.ebnf
printf '1+' >"$tmp/bad.txt"
printf '1' >"$tmp/good.txt"
# refused NAME ARGS...: exit status 2 and no $tmp/out.
refused() {
    name=$1; shift
    "$KPATH" "$@" >/dev/null 2>"$tmp/err"
    status=$?
    [ $status = 2 ] || fail "$name: exit status $status: $(cat "$tmp/err")"
    [ -s "$tmp/err" ] || fail "$name: no message"
    [ ! -e "$tmp/out" ] || fail "$name: left $(cd "$tmp" && find out) behind"
}
# expr.ebnf's smallest input needs depth 4 and 9 tree nodes.
refused "gen --max-depth 1" gen --max-depth 1 -o "$tmp/out/suite" $g
grep -q 'raise it: --max-depth 4' "$tmp/err" || fail "gen --max-depth 1: $(cat "$tmp/err")"
refused "cover --max-depth 1" cover --max-depth 1 -o "$tmp/out" $g
refused "cover --max-size 2" cover --max-size 2 -o "$tmp/out" $g
refused "gen --pin" gen --pin NoSuchRule -o "$tmp/out" $g
refused "gen --target" gen --target "$tmp/missing" -o "$tmp/out" $g
refused "reduce, an input that does not parse" reduce -o "$tmp/out/sub" $g "$tmp/good.txt" "$tmp/bad.txt"
refused "reduce, a missing input" reduce -o "$tmp/out" $g "$tmp/missing"
refused "check-oracle, a missing input" check-oracle -k 1 -o "$tmp/out" $g "$tmp/missing" -- true
refused "check-oracle --max-depth 1" check-oracle -k 2 --max-depth 1 -o "$tmp/out" $g -- true
grep -q 'raise it: --max-depth 4' "$tmp/err" || fail "check-oracle --max-depth 1: $(cat "$tmp/err")"
# bonsai: a depth axis below the smallest input would grow an empty corpus.
refused "bonsai --max-depth 1" bonsai --max-depth 1 -o "$tmp/out" $g
grep -qx 'kpath bonsai: error: the smallest input needs depth 4, more than the depth limit (--max-depth 1); raise it: --max-depth 4' "$tmp/err" || fail "bonsai --max-depth 1: $(cat "$tmp/err")"
# bonsai -k 99: the agenda holds 2^26 = 67108864 ranks; expr.ebnf has
# 16082523 10-paths and 70044573 11-paths (kpath paths --count; growth about
# x4.4 per k), so 10 is the largest k; 99-paths are about 4.4^99 > 2^64.
refused "bonsai -k 99" bonsai -k 99 -o "$tmp/out" $g
grep -qx "kpath bonsai: error: k 99 is too large: the grammar has more than 2^64 99-paths, more than the k-path strategy's agenda holds (67108864); the largest k below it that fits is 10" "$tmp/err" || fail "bonsai -k 99: $(cat "$tmp/err")"
# A directory that existed before stays, empty as it was.
mkdir "$tmp/out"
"$KPATH" gen --max-depth 1 -o "$tmp/out" $g >/dev/null 2>&1 && fail "gen --max-depth 1 into an existing directory: exit status 0"
[ -d "$tmp/out" ] || fail "the existing directory was removed"
[ -z "$(ls -A "$tmp/out")" ] || fail "the existing directory holds $(ls -A "$tmp/out")"
rmdir "$tmp/out"
# The runs that go ahead still create DIR and its parents.
"$KPATH" gen --strategy random -n 2 -o "$tmp/out/a/b" $g >/dev/null 2>&1 || fail "gen -o: exit status $?"
[ -f "$tmp/out/a/b/0002.txt" ] && [ -f "$tmp/out/a/b/manifest.json" ] || fail "gen -o wrote $(ls "$tmp/out/a/b")"
"$KPATH" reduce -o "$tmp/red" $g "$tmp/good.txt" >/dev/null 2>&1 || fail "reduce -o: exit status $?"
[ -f "$tmp/red/0001.txt" ] || fail "reduce -o wrote $(ls "$tmp/red")"
# A directory that is not empty is still refused, and by reduce before it solves.
"$KPATH" reduce -o "$tmp/red" $g "$tmp/good.txt" >"$tmp/stdout" 2>"$tmp/err" && fail "reduce into a full directory: exit status 0"
grep -q 'is not empty' "$tmp/err" || fail "reduce into a full directory: $(cat "$tmp/err")"
[ ! -s "$tmp/stdout" ] || fail "reduce into a full directory printed a report: $(cat "$tmp/stdout")"
exit 0
