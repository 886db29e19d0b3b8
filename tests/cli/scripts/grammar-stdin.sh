#!/bin/sh
# A grammar argument "-" is standard input (as a sample "-" is), named
# <stdin> in diagnostics, within the grammar size limit; a file called "-"
# is "./-".  Formerly: "-: error: cannot read: No such file or directory".
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'S := "a" | "b" S;\n' | "$KPATH" check - >"$tmp/out" 2>"$tmp/err" ||
    fail "check -: exit status $?: $(cat "$tmp/err")"
# 1-paths of S := "a" | "b" S: "a"_1, "b"_3, S_4 (nodes |_0 "a"_1 ~_2 "b"_3 S_4).
printf 'S := "a" | "b" S;\n' | "$KPATH" paths -k 1 - >"$tmp/out" 2>"$tmp/err" || fail "paths -: exit status $?"
[ "$(tr '\n' ' ' <"$tmp/out")" = '"a"_1 "b"_3 S_4 ' ] || fail "paths -: $(cat "$tmp/out")"
printf 'S := "a" | ;\n' | "$KPATH" check - >/dev/null 2>"$tmp/err"
status=$?
[ $status = 2 ] || fail "bad grammar on stdin: exit status $status"
[ "$(cat "$tmp/err")" = '<stdin>:1:12: error: empty alternative; write "" for the empty string' ] ||
    fail "bad grammar on stdin: $(cat "$tmp/err")"
# The size limit holds for standard input too.
printf 'S := "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";\n' |
    "$KPATH" check --max-input-size 10 - >/dev/null 2>"$tmp/err" && fail "over the size limit: exit status 0"
grep -q '^<stdin>: error: .*10' "$tmp/err" || fail "over the size limit: $(cat "$tmp/err")"
exit 0
