#!/bin/sh
# Grammar files are bounded: a pipe is refused unless --any-file asks for it
# (tests/cli/scripts/any-file.sh has devices, FIFOs and directories); then an
# endless pipe is read to 16 MiB and one byte more, then refused; a pipe of a
# real grammar is read; a device is refused without reading it
# (tests/cli/cases/check-dev-zero).  --max-input-size sets
# the bound, for commands with samples (where it bounds them too) and without.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
yes '# a comment line, for ever' | "$KPATH" check --any-file /dev/stdin >"$tmp/out" 2>"$tmp/err"
status=$?
[ $status = 2 ] || fail "endless pipe: exit status $status"
grep -qx '/dev/stdin: error: input is more than 16777216 bytes, the limit for a grammar file' "$tmp/err" ||
    fail "endless pipe: $(cat "$tmp/err")"
"$KPATH" check /dev/stdin <grammars/expr.ebnf >"$tmp/out" 2>"$tmp/err" || fail "grammar from a file as stdin: $(cat "$tmp/err")"
cat grammars/expr.ebnf | "$KPATH" check --any-file /dev/stdin >"$tmp/out" 2>"$tmp/err" || fail "grammar from a pipe: $(cat "$tmp/err")"

# --max-input-size N: a grammar file of N bytes is read, one of N + 1 is not.
size=$(wc -c <grammars/expr.ebnf | tr -d ' ')
less=$((size - 1))
for cmd in check info "cover -k 1" "paths --count" graph; do
    # shellcheck disable=SC2086
    "$KPATH" $cmd --max-input-size "$size" grammars/expr.ebnf >"$tmp/out" 2>"$tmp/err" ||
        fail "$cmd: a grammar of exactly --max-input-size bytes refused: $(cat "$tmp/err")"
    # shellcheck disable=SC2086
    "$KPATH" $cmd --max-input-size "$less" grammars/expr.ebnf >"$tmp/out" 2>"$tmp/err"
    status=$?
    [ $status = 2 ] || fail "$cmd: grammar over --max-input-size: exit status $status"
    [ ! -s "$tmp/out" ] || fail "$cmd: grammar over --max-input-size: output $(head -c 200 "$tmp/out")"
    grep -qx "grammars/expr.ebnf: error: input is $size bytes, more than the limit of $less for a grammar file" "$tmp/err" ||
        fail "$cmd: grammar over --max-input-size: $(cat "$tmp/err")"
done
# A command with samples: --max-input-size is the samples' limit; a small one
# leaves the grammar file at its default, one above 16M raises the grammar
# file's limit too.  A grammar of 16 MiB and a line: refused by default,
# read with --max-input-size 17M (not with 16M).
printf '1+2' >"$tmp/sample"
"$KPATH" parse --max-input-size 2 grammars/expr.ebnf "$tmp/sample" >"$tmp/out" 2>"$tmp/err"
status=$?
[ $status = 2 ] || fail "parse: sample over a small --max-input-size: exit status $status"
grep -qx "$tmp/sample: error: input is 3 bytes, more than the limit of 2 (--max-input-size)" "$tmp/err" ||
    fail "parse: sample over a small --max-input-size: $(cat "$tmp/err")"
{ yes '# padding to 16 MiB ..........................................' | head -c 16777216
  cat grammars/expr.ebnf; } >"$tmp/big.ebnf"
big=$(wc -c <"$tmp/big.ebnf" | tr -d ' ')
for limit in "" 16M; do
    "$KPATH" parse ${limit:+--max-input-size "$limit"} "$tmp/big.ebnf" "$tmp/sample" >"$tmp/out" 2>"$tmp/err"
    status=$?
    [ $status = 2 ] || fail "parse, a grammar over 16 MiB, limit '$limit': exit status $status"
    grep -qx "$tmp/big.ebnf: error: input is $big bytes, more than the limit of 16777216 for a grammar file" "$tmp/err" ||
        fail "parse, a grammar over 16 MiB, limit '$limit': $(cat "$tmp/err")"
done
"$KPATH" parse --max-input-size 17M "$tmp/big.ebnf" "$tmp/sample" >"$tmp/out" 2>"$tmp/err" ||
    fail "parse --max-input-size 17M, a grammar over 16 MiB: $(cat "$tmp/err")"
"$KPATH" check --max-input-size 17M "$tmp/big.ebnf" >"$tmp/out" 2>"$tmp/err" ||
    fail "check --max-input-size 17M, a grammar over 16 MiB: $(cat "$tmp/err")"
rm -f "$tmp/big.ebnf"
# A pipe is read to the limit and one byte more.
yes '# a comment line, for ever' | "$KPATH" check --any-file --max-input-size 1K /dev/stdin >"$tmp/out" 2>"$tmp/err"
status=$?
[ $status = 2 ] || fail "endless pipe, 1K: exit status $status"
grep -qx '/dev/stdin: error: input is more than 1024 bytes, the limit for a grammar file' "$tmp/err" ||
    fail "endless pipe, 1K: $(cat "$tmp/err")"
# A bad value is a usage error.
"$KPATH" check --max-input-size 0 grammars/expr.ebnf >"$tmp/out" 2>"$tmp/err"
status=$?
[ $status = 2 ] || fail "--max-input-size 0: exit status $status"
grep -qx "kpath check: --max-input-size must be a number of bytes from 1, optionally with K, M or G, not '0'" "$tmp/err" ||
    fail "--max-input-size 0: $(cat "$tmp/err")"
exit 0
