#!/bin/sh
# A write that fails half-way (a directory sits where 0003.txt must go):
# exit status 1, the error names the file, the two files written before are
# complete and are said to be intact, no manifest.json claims a finished
# suite, and no temporary file is left behind.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
dir=$tmp/suite
mkdir -p "$dir/0003.txt" || exit 1

"$KPATH" gen --strategy random -n 5 --seed 3 grammars/expr.ebnf >"$tmp/plain" 2>/dev/null ||
    fail "plain run: exit status $?"
"$KPATH" gen --strategy random -n 5 --seed 3 -o "$dir" --force grammars/expr.ebnf \
    >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 1 ] || { cat "$tmp/err" >&2; fail "exit status $status, expected 1"; }
grep -qxF "$dir/0003.txt: error: cannot put the new file in place: Is a directory" \
    "$tmp/err" || { cat "$tmp/err" >&2; fail "the error does not name 0003.txt"; }
grep -qxF "kpath gen: 2 files were written to $dir before the error; they are intact" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "no count of the files written"; }
grep -q '^wrote ' "$tmp/err" && fail "claims success"

# The two files are the first two inputs, whole.
[ "$(cat "$dir/0001.txt")" = "$(sed -n 1p "$tmp/plain")" ] || fail "0001.txt is not input 1"
[ "$(cat "$dir/0002.txt")" = "$(sed -n 2p "$tmp/plain")" ] || fail "0002.txt is not input 2"
[ -e "$dir/manifest.json" ] && fail "manifest.json written after a failure"
[ -e "$dir/0004.txt" ] && fail "kept writing after the failure"
[ -d "$dir/0003.txt" ] && [ -z "$(ls -A "$dir/0003.txt")" ] || fail "the blocking directory changed"
listing=$(ls -A "$dir" | tr '\n' ' ')
[ "$listing" = "0001.txt 0002.txt 0003.txt " ] || fail "left in the directory: $listing"
exit 0
