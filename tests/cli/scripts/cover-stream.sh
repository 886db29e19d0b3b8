#!/bin/sh
# --stream (issue 17, point 3): cover writes each input to stdout as soon as
# its tree is finished, also where the default would drop redundant inputs
# at the end, by keeping every input (as --keep-redundant does), so nothing
# written is taken back.  The observable without timing: with stdout on
# /dev/full a streaming run stops at its first input (its write fails), so
# its summary says "inputs: 1", while the default run makes all its inputs
# first.  What streams is byte for byte --keep-redundant's suite, files of -o
# included: on expr -k 2 more inputs than the default keeps (it drops some
# at the end), with the default's coverage.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=grammars/expr.ebnf

if [ -w /dev/full ]; then
    "$KPATH" cover --stream -k 2 $g >/dev/full 2>"$tmp/err" &&
        fail "--stream on /dev/full: exit status 0"
    grep -qx 'inputs: 1, .*' "$tmp/err" || { cat "$tmp/err" >&2; fail "--stream did not stream"; }
    grep -q 'left on the agenda: writing the inputs failed and stopped generation early' \
        "$tmp/err" || { cat "$tmp/err" >&2; fail "--stream: the summary does not say why it stopped"; }
    "$KPATH" cover -k 2 $g >/dev/full 2>"$tmp/err" && fail "default on /dev/full: exit status 0"
    grep -qx 'inputs: 1, .*' "$tmp/err" && fail "the default streamed, but it drops inputs at the end"
fi

"$KPATH" cover --stream -k 2 $g >"$tmp/streamed" 2>"$tmp/streamed.err" ||
    fail "--stream: $(cat "$tmp/streamed.err")"
grep -qx 'suite: every input, as streamed (--stream drops none)' "$tmp/streamed.err" ||
    { cat "$tmp/streamed.err" >&2; fail "--stream: the summary does not say that every input stays"; }
"$KPATH" cover --keep-redundant -k 2 $g >"$tmp/kept" 2>"$tmp/err" || fail "--keep-redundant: $(cat "$tmp/err")"
cmp -s "$tmp/streamed" "$tmp/kept" || fail "--stream differs from --keep-redundant"
"$KPATH" cover --keep-redundant -k 2 -o "$tmp/suite" $g >/dev/null 2>"$tmp/err" ||
    fail "--keep-redundant -o: $(cat "$tmp/err")"
for f in "$tmp"/suite/*.txt; do cat "$f"; echo; done >"$tmp/files"
cmp -s "$tmp/streamed" "$tmp/files" || fail "--stream differs from the files of -o"
# More inputs than the default (nothing dropped), the same coverage.
"$KPATH" cover -k 2 $g >/dev/null 2>"$tmp/default.err" || fail "default: $(cat "$tmp/default.err")"
inputs() { sed -n 's/^inputs: \([0-9]*\),.*/\1/p' "$1"; }
n=$(inputs "$tmp/streamed.err") d=$(inputs "$tmp/default.err")
[ -n "$n" ] && [ -n "$d" ] && [ "$n" -gt "$d" ] ||
    fail "--stream made '$n' inputs; the default keeps '$d' (the test needs a grammar where it drops some)"
[ "$(wc -l <"$tmp/streamed" | tr -d ' ')" = "$n" ] || fail "--stream: not $n lines on stdout"
grep '^  k=' "$tmp/default.err" >"$tmp/default.cov"
grep '^  k=' "$tmp/streamed.err" >"$tmp/streamed.cov"
[ -s "$tmp/default.cov" ] || fail "no coverage rows"
cmp -s "$tmp/default.cov" "$tmp/streamed.cov" || fail "--stream covers other k-paths than the default"
# gen streams the same way (its default strategy is kpath too).
"$KPATH" gen --stream -k 2 $g >"$tmp/gen" 2>"$tmp/err" || fail "gen --stream: $(cat "$tmp/err")"
cmp -s "$tmp/streamed" "$tmp/gen" || fail "gen --stream differs from cover --stream"
exit 0
