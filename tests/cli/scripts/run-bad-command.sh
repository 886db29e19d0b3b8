#!/bin/sh
# A command that does not exist, is not executable or is a directory is
# reported before anything runs (exit status 2, no results file); a command
# that fails the same way for each of the first 5 inputs stops the run at
# once (exit status 1) with its outcome and stderr, unless --keep-going
# (every run that ended is recorded, also when a collector's helper must
# still run after it);
# fewer than 5 inputs failing alike are no evidence (a complete run, exit
# status 0), and when every input ran it is a warning that says "all".
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/in"
for i in 01 02 03 04 05 06 07 08 09 10 11 12; do printf 'x' >"$tmp/in/$i"; done
printf 'data' >"$tmp/plain"
expect() { # expected status, expected stderr line, args...
    want_status=$1 want_err=$2
    shift 2
    "$KPATH" run --results "$tmp/r.jsonl" "$@" >"$tmp/out" 2>"$tmp/err"
    status=$?
    [ "$status" = "$want_status" ] || { cat "$tmp/err" >&2; fail "$*: exit status $status, expected $want_status"; }
    grep -qxF "$want_err" "$tmp/err" || { cat "$tmp/err" >&2; fail "$*: no line: $want_err"; }
}
g=grammars/expr.ebnf
expect 2 "kpath run: error: $tmp/nope: no such command" $g "$tmp/in" -- "$tmp/nope"
expect 2 "kpath run: error: $tmp/plain: is not executable" $g "$tmp/in" -- "$tmp/plain" '{}'
expect 2 "kpath run: error: $tmp: is a directory, not a command" $g "$tmp/in" -- "$tmp"
expect 2 "kpath run: error: kpath-no-such-command: command not found in PATH" $g "$tmp/in" -- kpath-no-such-command
[ -e "$tmp/r.jsonl" ] && fail "a results file was made for a command that cannot run"

# Fails for each of the first 5 of 12 inputs, the same way: stop there (-j 1: exactly 5 ran).
printf '#!/bin/sh\necho "usage: broken FILE" >&2\nexit 64\n' >"$tmp/broken"
chmod +x "$tmp/broken"
expect 1 "kpath run: error: the command failed for each of the first 5 inputs the same way: exit:64; stderr: usage: broken FILE (--keep-going runs the rest anyway)" \
    -j 1 $g "$tmp/in" -- "$tmp/broken"
grep -qxF "kpath run: stopped: 5 of 12 runs recorded in $tmp/r.jsonl" "$tmp/err" || fail "no stop line"
[ "$(grep -c '"input"' "$tmp/r.jsonl")" = 5 ] || fail "not 5 records after stopping"
rm -f "$tmp/r.jsonl"
# The same with a collector that runs a helper after each run (as gcov
# does): the fifth run is recorded too, with its features; with -j 2 the
# run under way finishes and is recorded as well (5 or 6 records, as many as
# the stop line says).
expect 1 "kpath run: error: the command failed for each of the first 5 inputs the same way: exit:64; stderr: usage: broken FILE (--keep-going runs the rest anyway)" \
    -j 1 --features-cmd 'echo seen' $g "$tmp/in" -- "$tmp/broken"
grep -qxF "kpath run: stopped: 5 of 12 runs recorded in $tmp/r.jsonl" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "helper: no stop line for 5 runs"; }
[ "$(grep -c '"input"' "$tmp/r.jsonl")" = 5 ] || fail "helper: not 5 records after stopping"
[ "$(grep -c '"seen"' "$tmp/r.jsonl")" = 5 ] ||
    { cat "$tmp/r.jsonl" >&2; fail "helper: not every record has the helper's feature"; }
rm -f "$tmp/r.jsonl"
expect 1 "kpath run: error: the command failed for each of the first 5 inputs the same way: exit:64; stderr: usage: broken FILE (--keep-going runs the rest anyway)" \
    -j 2 --features-cmd 'echo seen' $g "$tmp/in" -- "$tmp/broken"
n=$(grep -c '"input"' "$tmp/r.jsonl")
[ "$n" = 5 ] || [ "$n" = 6 ] || fail "helper, -j 2: $n records"
grep -qxF "kpath run: stopped: $n of 12 runs recorded in $tmp/r.jsonl" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "helper, -j 2: the stop line does not say $n"; }
rm -f "$tmp/r.jsonl"
# --keep-going runs them all.
expect 0 "kpath run: 12 runs recorded in $tmp/r.jsonl" --keep-going -j 2 $g "$tmp/in" -- "$tmp/broken"
rm -f "$tmp/r.jsonl"
# Two inputs, both failing alike, are not evidence of a broken command
# (they may find the same bug): the run is complete, exit status 0.
expect 0 "kpath run: 2 runs recorded in $tmp/r.jsonl" $g "$tmp/in/01" "$tmp/in/02" -- false
grep -q "same way" "$tmp/err" && { cat "$tmp/err" >&2; fail "2 inputs: a failing-alike message"; }
rm -f "$tmp/r.jsonl"
# Exactly 5, all failing alike: every input ran, so the run is complete
# (exit status 0) and the likeness is a warning that says "all".
expect 0 "kpath run: warning: the command failed for all 5 inputs the same way: exit:64; stderr: usage: broken FILE (is the command line right?)" \
    -j 1 $g "$tmp/in/01" "$tmp/in/02" "$tmp/in/03" "$tmp/in/04" "$tmp/in/05" -- "$tmp/broken"
grep -qxF "kpath run: 5 runs recorded in $tmp/r.jsonl" "$tmp/err" || fail "5 inputs: not complete"
rm -f "$tmp/r.jsonl"
# Failures that differ are the program's behaviour, not a broken command.
printf 'exit 1' >"$tmp/in/01"
printf 'exit 2' >"$tmp/in/02"
expect 0 "kpath run: 12 runs recorded in $tmp/r.jsonl" $g "$tmp/in" -- sh -c 'exit $(wc -c < "$0")' '{}'
exit 0
