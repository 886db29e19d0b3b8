#!/bin/sh
# kpath dup -o: the file holds exactly what stdout would, a summary goes to
# stderr, an existing file is replaced whole (its permissions kept, even when
# it is the input grammar itself), no temporary file is left, and the result
# loads with the k-path counts of the duplicated grammar.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
src=tests/grammars/contexts/numbers.ebnf

"$KPATH" dup "$src" '<factor>' 4 >"$tmp/stdout" || fail "to stdout: exit status $?"
"$KPATH" dup -o "$tmp/out.ebnf" "$src" '<factor>' 4 >"$tmp/o" 2>"$tmp/err" ||
    fail "-o: exit status $?"
[ -s "$tmp/o" ] && fail "-o also wrote to stdout"
cmp -s "$tmp/stdout" "$tmp/out.ebnf" || fail "the file differs from stdout"
[ "$(cat "$tmp/err")" = "wrote $tmp/out.ebnf: 6 new rules" ] ||
    { cat "$tmp/err" >&2; fail "unexpected summary"; }

# 1-paths: the original's 39, plus 3 symbols in each copy of <integer> and 10
# literals in each of the four copies of <digit>: 39 + 6 + 40 = 85.
"$KPATH" check "$tmp/out.ebnf" || fail "the output does not check"
[ "$("$KPATH" paths -k 1 --count "$src")" = 39 ] || fail "1-paths of the input"
[ "$("$KPATH" paths -k 1 --count "$tmp/out.ebnf")" = 85 ] || fail "1-paths of the output"

# Duplicating in place: the input is replaced atomically, mode kept.
cp "$src" "$tmp/in.ebnf" && chmod 640 "$tmp/in.ebnf"
"$KPATH" dup -o "$tmp/in.ebnf" "$tmp/in.ebnf" '<factor>' 4 2>/dev/null || fail "in place"
cmp -s "$tmp/stdout" "$tmp/in.ebnf" || fail "in place: the file differs"
[ "$(stat -c %a "$tmp/in.ebnf")" = 640 ] || fail "in place: permissions changed"

# A failed duplication writes nothing.
"$KPATH" dup -o "$tmp/none.ebnf" "$src" '<digit>' 1 2>/dev/null && fail "nothing to duplicate succeeded"
[ -e "$tmp/none.ebnf" ] && fail "a failed run wrote a file"
leftover=$(ls -A "$tmp" | grep -v -e '^stdout$' -e '^o$' -e '^err$' -e '^out.ebnf$' -e '^in.ebnf$')
[ -z "$leftover" ] || fail "left behind: $leftover"
exit 0
