#!/bin/sh
# cover streams its inputs to stdout whenever no input can be dropped at the
# end, not only with --keep-redundant (issue 17, point 2): with -n 1 (one
# input cannot be redundant) and with --target in a k-path space too big for
# redundancy counts (expr has 305,066,019 12-paths, more than 2^26).  The
# observable without timing: with stdout on /dev/full, a streaming run stops
# at its first input (its write fails), so its summary says "inputs: 1"; a
# run that writes at the end has made all its inputs first (3 here, one per
# target; 22 for the plain json -k 2 suite, which must not stream: greedy,
# packing up to 60 tree nodes, makes 22 and none is redundant).  What
# streams is byte for byte what the same run writes with -o.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
targets=tests/grammars/targets/expr-12paths.txt
[ -w /dev/full ] || { echo "skipped: no /dev/full"; exit 0; }

"$KPATH" cover --target $targets grammars/expr.ebnf >/dev/full 2>"$tmp/err" &&
    fail "--target on /dev/full: exit status 0"
grep -qx 'inputs: 1, .*' "$tmp/err" || { cat "$tmp/err" >&2; fail "--target did not stream"; }
grep -qx '  2 left on the agenda: writing the inputs failed and stopped generation early' \
    "$tmp/err" || { cat "$tmp/err" >&2; fail "--target: the summary does not say why it stopped"; }
"$KPATH" cover -k 2 grammars/json.ebnf >/dev/full 2>"$tmp/err" &&
    fail "json -k 2 on /dev/full: exit status 0"
grep -qx 'inputs: 22, .*' "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "json -k 2 streamed, but it drops inputs at the end"; }

same_as_suite() { # name, options...
    name=$1
    shift
    "$KPATH" cover "$@" >"$tmp/$name.out" 2>"$tmp/err" || fail "$name: $(cat "$tmp/err")"
    rm -rf "$tmp/suite"
    "$KPATH" cover "$@" -o "$tmp/suite" >/dev/null 2>"$tmp/err" ||
        fail "$name -o: $(cat "$tmp/err")"
    for f in "$tmp"/suite/*.txt; do cat "$f"; echo; done >"$tmp/$name.files"
    [ -s "$tmp/$name.out" ] || fail "$name: no inputs"
    cmp -s "$tmp/$name.out" "$tmp/$name.files" || fail "$name: streamed inputs differ from the suite's"
}
same_as_suite targets --target $targets grammars/expr.ebnf
[ "$(wc -l <"$tmp/targets.out" | tr -d ' ')" = 3 ] || fail "--target: not 3 inputs"
same_as_suite one -n 1 -k 2 grammars/expr.ebnf
[ "$(wc -l <"$tmp/one.out" | tr -d ' ')" = 1 ] || fail "-n 1: not 1 input"
exit 0
