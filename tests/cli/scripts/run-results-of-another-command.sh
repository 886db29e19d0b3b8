#!/bin/sh
# kpath run appends to its results file only for the same grammar, start
# rule, command and collectors.  Another command on the same file is refused:
# exit status 2, one error naming the file, what differs and what to do
# instead, nothing run, and the file byte for byte as it was.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/in"
printf '1+2' >"$tmp/in/a.txt"
"$KPATH" run -q --results "$tmp/r.jsonl" --start Expr grammars/arith.ebnf "$tmp/in" -- cat \
    >/dev/null 2>"$tmp/err" || fail "first run: exit status $?: $(cat "$tmp/err")"
cp "$tmp/r.jsonl" "$tmp/before"
"$KPATH" run -q --results "$tmp/r.jsonl" --start Expr grammars/arith.ebnf "$tmp/in" -- wc -c \
    >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 2 ] || fail "another command: exit status $status, expected 2"
[ -s "$tmp/out" ] && fail "another command: printed a report: $(cat "$tmp/out")"
printf '%s\n' "$tmp/r.jsonl: error: results of another command: they cannot be combined; choose another --results, or remove this file" |
    cmp -s - "$tmp/err" || fail "another command: stderr: $(cat "$tmp/err")"
cmp -s "$tmp/before" "$tmp/r.jsonl" || fail "the results file changed"
exit 0
