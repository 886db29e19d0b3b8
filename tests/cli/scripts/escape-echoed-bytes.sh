#!/bin/sh
# Issue 38 item 5: kpath escapes the control characters of what it echoes of
# a program's or a sample's bytes: the stderr line of a program that fails the
# same way for every input (an OSC that sets the window title, a CSI that
# clears the screen), and the character of "unexpected '...'" in a sample (ESC,
# a BOM, a C1 control).  No ESC, BEL, BOM or C1 byte reaches kpath's output.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
raw() { LC_ALL=C grep -q "$(printf '[\033\007\302\357]')" "$1"; }

printf '1+\033]0;pwn\007' >"$tmp/esc.txt"
printf '\357\273\2771' >"$tmp/bom.txt"
printf '1\302\233' >"$tmp/c1.txt"
for f in esc bom c1; do
    "$KPATH" parse grammars/expr.ebnf "$tmp/$f.txt" >/dev/null 2>"$tmp/err" && fail "$f parses"
    raw "$tmp/err" && fail "$f: raw control bytes in: $(od -c "$tmp/err")"
done
"$KPATH" parse grammars/expr.ebnf "$tmp/esc.txt" 2>&1 | grep -q "1:3: error: no parse: unexpected '\\\\x1B'" ||
    fail "ESC not shown as \\x1B"
"$KPATH" parse grammars/expr.ebnf "$tmp/bom.txt" 2>&1 | grep -q "1:1: error: no parse: unexpected '\\\\u{FEFF}'" ||
    fail "BOM not shown as \\u{FEFF}"
"$KPATH" parse grammars/expr.ebnf "$tmp/c1.txt" 2>&1 | grep -q "unexpected '\\\\u{009B}'" ||
    fail "C1 not shown as \\u{009B}"

# A program that fails the same way for every input, its stderr line full of
# escape sequences (six inputs: the first five failing alike stop the run).
for i in 1 2 3 4 5 6; do printf '%s\n' $i >"$tmp/in$i"; done
cat >"$tmp/prog.sh" <<'PROG'
printf '\033]0;pwned\007\033[2Jbad input\302\233\n' >&2
exit 3
PROG
"$KPATH" run --results "$tmp/results" grammars/expr.ebnf "$tmp"/in[1-6] -- sh "$tmp/prog.sh" >/dev/null 2>"$tmp/err"
grep -q 'the same way' "$tmp/err" || { cat "$tmp/err" >&2; fail "no 'failed the same way' message"; }
raw "$tmp/err" && fail "run: raw control bytes in: $(od -c "$tmp/err" | head)"
grep -q 'stderr: \\x1B\]0;pwned\\x07\\x1B\[2Jbad input\\u{009B}' "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "run: the stderr line is not escaped as expected"; }
exit 0
