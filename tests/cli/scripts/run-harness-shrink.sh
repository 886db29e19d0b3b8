#!/bin/sh
# kpath shrink --harness: a failing input made smaller with a libFuzzer
# harness as the program (tests/subjects/harness_list.c), a fork per input
# and --in-process.  By hand from the subject: only the first byte decides
# a crash ('!' writes through a null pointer: SIGSEGV), so the smallest
# input that keeps signal:SIGSEGV is "!"; fn:parse_list is reached exactly
# when the first byte is '[' (parse_value hands it to parse_list), so the
# smallest input that keeps it is "[".  Skipped, saying so, without clang.
. tests/cli/harness_setup.sh
printf '!ab[1,2],x' >"$tmp/crash.txt"
printf '[12,ab,[3]]' >"$tmp/list.txt"
for mode in "" --in-process; do
    "$KPATH" shrink $mode --harness "$h" -o "$tmp/small" grammars/expr.ebnf "$tmp/crash.txt" \
        2>"$tmp/err" || { st=$?; cat "$tmp/err" >&2; fail "shrink $mode: exit $st"; }
    [ "$(cat "$tmp/small")" = '!' ] || fail "shrink $mode: '$(cat "$tmp/small")', expected '!'"
    grep -q "keeping signal:SIGSEGV" "$tmp/err" || fail "shrink $mode: $(cat "$tmp/err")"
    "$KPATH" shrink $mode --harness "$h" --keep fn:parse_list grammars/expr.ebnf "$tmp/list.txt" \
        >"$tmp/small" 2>"$tmp/err" || { st=$?; cat "$tmp/err" >&2; fail "shrink --keep $mode: exit $st"; }
    [ "$(cat "$tmp/small")" = '[' ] || fail "shrink --keep $mode: '$(cat "$tmp/small")', expected '['"
done
# The harness is the program: not with -- COMMAND; one of them is needed.
"$KPATH" shrink --harness "$h" grammars/expr.ebnf "$tmp/crash.txt" -- /bin/false >/dev/null 2>&1
[ $? = 2 ] || fail "shrink --harness with -- COMMAND is not a usage error"
"$KPATH" shrink grammars/expr.ebnf "$tmp/crash.txt" >/dev/null 2>"$tmp/err"
[ $? = 2 ] || fail "shrink without a program is not a usage error"
grep -q -- "--harness" "$tmp/err" || fail "the usage error does not name --harness: $(cat "$tmp/err")"
exit 0
