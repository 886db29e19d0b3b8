#!/bin/sh
# Every command that reads a GRAMMAR takes --format (as docs/commands.md's command
# section promises), and it works: a grammar in kpath's format saved under a
# name ending in .g4 is refused as ANTLR without it, and read as it is with
# --format ebnf, giving the output the .ebnf file gives.  reduce, bonsai,
# explain and target once had no --format (a grammar with an unusual name
# could not be used with them at all).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# 1. --help of every command whose usage names GRAMMAR lists --format.
commands=$("$KPATH" --help | sed -n '/^Commands:/,/^$/p' | sed -n 's/^  \([a-z-]*\) .*/\1/p')
[ -n "$commands" ] || fail "no commands in kpath --help"
checked=0
for c in $commands; do
    "$KPATH" "$c" --help >"$tmp/help" || fail "$c --help: exit status $?"
    sed -n '1,3p' "$tmp/help" | grep -q GRAMMAR || continue
    grep -q -- '--format FORMAT' "$tmp/help" || fail "kpath $c --help lists no --format"
    checked=$((checked + 1))
done
[ "$checked" -ge 19 ] || fail "only $checked commands name GRAMMAR in their usage"

# 2. It works in the commands that lacked it.
cp grammars/expr.ebnf "$tmp/expr.g4"
samples=tests/samples/expr/valid
"$KPATH" reduce -k 2 "$tmp/expr.g4" $samples >/dev/null 2>"$tmp/err" &&
    fail "reduce read EBNF as ANTLR"
grep -q 'expr.g4:' "$tmp/err" || fail "reduce: no diagnostic at the grammar file"
"$KPATH" reduce -k 2 grammars/expr.ebnf $samples >"$tmp/want" 2>&1 || fail "reduce .ebnf"
"$KPATH" reduce -k 2 --format ebnf "$tmp/expr.g4" $samples >"$tmp/got" 2>&1 ||
    fail "reduce --format ebnf: exit status $?"
cmp -s "$tmp/want" "$tmp/got" || fail "reduce --format ebnf: another report"

"$KPATH" bonsai -k 1 --max-depth 6 grammars/expr.ebnf >"$tmp/want" 2>/dev/null || fail "bonsai .ebnf"
"$KPATH" bonsai -k 1 --max-depth 6 --format ebnf "$tmp/expr.g4" >"$tmp/got" 2>/dev/null ||
    fail "bonsai --format ebnf: exit status $?"
[ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got" || fail "bonsai --format ebnf: another corpus"

train=tests/explain/expr/train.jsonl
"$KPATH" explain -k 2 --no-balance --feature fn:mul_add grammars/expr.ebnf $train \
    >"$tmp/want" 2>/dev/null || fail "explain .ebnf"
"$KPATH" explain -k 2 --no-balance --feature fn:mul_add --format ebnf "$tmp/expr.g4" $train \
    >"$tmp/got" 2>/dev/null || fail "explain --format ebnf: exit status $?"
grep -q 'fn:mul_add' "$tmp/got" && cmp -s "$tmp/want" "$tmp/got" ||
    fail "explain --format ebnf: another report"

"$KPATH" target -k 2 --no-balance --feature fn:mul_add -n 3 grammars/expr.ebnf $train \
    >"$tmp/want" 2>/dev/null || fail "target .ebnf"
"$KPATH" target -k 2 --no-balance --feature fn:mul_add -n 3 --format ebnf "$tmp/expr.g4" $train \
    >"$tmp/got" 2>/dev/null || fail "target --format ebnf: exit status $?"
[ "$(wc -l <"$tmp/got")" = 3 ] && cmp -s "$tmp/want" "$tmp/got" ||
    fail "target --format ebnf: other inputs"
exit 0
