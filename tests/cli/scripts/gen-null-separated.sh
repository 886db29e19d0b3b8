#!/bin/sh
# -0 ends each input with a NUL instead of a newline, so inputs that contain
# newlines stay apart; -0 and -o exclude each other.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# Two inputs: "a<newline>b" and "c".  1-path coverage needs both literals.
printf 'start := "a\\nb" | "c";\n' >"$tmp/g.ebnf"

"$KPATH" cover -k 1 -0 "$tmp/g.ebnf" >"$tmp/out" 2>"$tmp/err" || fail "cover -0: exit status $?"
# Map NUL to '@' and newline to '%' to compare bytes in the shell.
got=$(tr '\000\n' '@%' <"$tmp/out")
case "$got" in
    'a%b@c@' | 'c@a%b@') ;;
    *) fail "-0 output is '$got', expected the records 'a%b' and 'c' each ended by '@'" ;;
esac
grep -qx 'inputs: 2, 4 bytes in total, 2.0 bytes on average' "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "summary: inputs line"; }

# Without -0: newlines end inputs, so this output has three lines for two inputs.
"$KPATH" cover -k 1 "$tmp/g.ebnf" >"$tmp/out" 2>/dev/null || fail "cover: exit status $?"
got=$(tr '\000\n' '@%' <"$tmp/out")
case "$got" in
    'a%b%c%' | 'c%a%b%') ;;
    *) fail "newline-separated output is '$got'" ;;
esac

# The long form, and the clash with -o (nothing is created).
"$KPATH" gen --null --strategy random -n 3 "$tmp/g.ebnf" >"$tmp/out" 2>/dev/null || fail "--null failed"
[ "$(tr -cd '\000' <"$tmp/out" | wc -c)" -eq 3 ] || fail "--null: expected 3 NULs"
"$KPATH" gen -0 -o "$tmp/suite" "$tmp/g.ebnf" >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 2 ] || fail "-0 with -o: exit status $status, expected 2"
grep -q -- '-0 and -o exclude each other' "$tmp/err" || fail "-0 with -o: message"
[ -e "$tmp/suite" ] && fail "-0 with -o created the directory"
exit 0
