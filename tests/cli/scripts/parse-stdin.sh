#!/bin/sh
# '-' reads the sample from standard input: the same tree as from a file, and
# diagnostics name it <stdin>.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
f=tests/samples/expr/valid/mixed.txt

"$KPATH" parse grammars/expr.ebnf "$f" >"$tmp/from-file" || fail "parse FILE: status $?"
"$KPATH" parse grammars/expr.ebnf - <"$f" >"$tmp/from-stdin" || fail "parse -: status $?"
cmp -s "$tmp/from-file" "$tmp/from-stdin" || fail "trees differ between FILE and -"

printf 'x+4)' | "$KPATH" parse grammars/expr.ebnf - >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] || fail "a sample that does not parse must exit with status 2"
grep -q "^<stdin>:1:4: error: no parse: unexpected ')'" "$tmp/err" || fail "stderr: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "output for a sample that does not parse"

# coverage takes '-' among other files, and through a pipe the size limit
# still holds (the pipe is read to the limit and no further).
printf 'x+42' | "$KPATH" coverage grammars/expr.ebnf - tests/samples/expr/valid/nested.txt >"$tmp/out" ||
    fail "coverage with -: status $?"
grep -qxF '<stdin>: k=1 12/39 (30.7%), k=2 12/125 (9.6%)' "$tmp/out" || fail "coverage of -: $(cat "$tmp/out")"
head -c 100000 /dev/zero | "$KPATH" coverage --max-input-size 1K grammars/expr.ebnf - >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] || fail "an oversized pipe must fail with status 2"
grep -qxF '<stdin>: error: input is more than 1024 bytes, the limit (--max-input-size)' "$tmp/err" ||
    fail "stderr for an oversized pipe: $(cat "$tmp/err")"
exit 0
