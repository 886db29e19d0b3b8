#!/bin/sh
# Every --help (kpath's and each command's) reads on an 80x24 terminal: no
# line is wider than 80 columns (option help wraps under its column), and a
# wrapped option keeps its name on the first line so the man page and the
# completion still find every option.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
wide=$("$KPATH" --help | awk 'length($0) > 80')
[ -z "$wide" ] || fail "kpath --help has lines over 80 columns: $wide"
commands=$("$KPATH" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 { print $1 }')
[ -n "$commands" ] || fail "no commands in --help"
n=0
for c in $commands; do
    "$KPATH" "$c" --help >/dev/null || fail "$c --help: exit status $?"
    wide=$("$KPATH" "$c" --help | awk 'length($0) > 80 { print length($0) ": " $0 }')
    [ -z "$wide" ] || fail "kpath $c --help has lines over 80 columns: $wide"
    n=$((n + 1))
done
# gen's --probs help is longer than one line: it must wrap, not be cut.
"$KPATH" gen --help | grep -A1 -- '--probs FILE' | tail -1 | grep -q '^                           [a-z(]' ||
    fail "gen --probs: the help text does not continue under its column"
"$KPATH" gen --help | tr '\n' ' ' | tr -s ' ' | grep -q 'a grammar with the same rules annotated by hand' ||
    fail "gen --probs: the wrapped help text lost words"
[ "$n" -ge 20 ] || fail "only $n commands checked"
