#!/bin/sh
# CLI golden tests.  Each case is tests/cli/cases/NAME.cmd: one line, the
# arguments to kpath (run from the repository root; may use sh quoting).
# Beside it: NAME.out (expected stdout), NAME.err (expected stderr) and
# NAME.status (expected exit status, 0 when absent).  A missing .out/.err means
# that stream must be empty.  Then each tests/cli/scripts/*.sh runs (see the
# loop at the end).  Prints "N passed, N failed" and fails on any failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${KPATH:=$root/build/kpath}"
cd "$root" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
for cmd in "$here"/cases/*.cmd; do
    [ -e "$cmd" ] || continue
    name=$(basename "$cmd" .cmd)
    base=${cmd%.cmd}
    args=$(cat "$cmd")
    eval "set -- $args"
    "$KPATH" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    status=$?
    want_status=0
    [ -f "$base.status" ] && want_status=$(cat "$base.status")
    ok=1
    : >"$tmp/empty"
    want_out="$tmp/empty" want_err="$tmp/empty"
    [ -f "$base.out" ] && want_out="$base.out"
    [ -f "$base.err" ] && want_err="$base.err"
    if ! cmp -s "$tmp/out" "$want_out"; then
        echo "FAIL $name: stdout differs:"; diff "$want_out" "$tmp/out" | head -20; ok=0
    fi
    if ! cmp -s "$tmp/err" "$want_err"; then
        echo "FAIL $name: stderr differs:"; diff "$want_err" "$tmp/err" | head -20; ok=0
    fi
    if [ "$status" != "$want_status" ]; then
        echo "FAIL $name: exit status $status, expected $want_status"; ok=0
    fi
    if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
# Scripted tests: tests/cli/scripts/NAME.sh, run from the repository root with
# $KPATH set; exit status 0 is a pass.  Their output is shown when they fail.
for script in "$here"/scripts/*.sh; do
    [ -e "$script" ] || continue
    name=scripts/$(basename "$script" .sh)
    if KPATH="$KPATH" sh "$script" >"$tmp/script-out" 2>&1 </dev/null; then
        passed=$((passed + 1))
    else
        echo "FAIL $name (exit status $?):"; tail -n 30 "$tmp/script-out"
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
