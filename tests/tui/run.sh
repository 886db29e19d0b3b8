#!/bin/sh
# TUI tests.  Each case is tests/tui/cases/NAME.script, run as
#     kpath --script NAME.script GRAMMAR [ARGS]
# in a fresh directory (with grammars/, tests/ and themes/ linked in, and
# kpath-build/ for the directory of the kpath under test), at
# 100x30, in a pinned environment (TERM, LANG/LC_ALL, HOME, INPUTRC, TZ,
# XDG directories).  Header lines of the script set the rest:
#     #! grammar: PATH        (default grammars/expr.ebnf; "none" for none)
#     #! args: ARGS           (more arguments, e.g. --size 80x24)
#     #! env: VAR=VALUE ...   (environment changes, e.g. LANG=C LC_ALL=C)
# Every screen the script dumps with `:dump FILE` is compared with
# cases/NAME.FILE when that file exists; NAME.err is the expected stderr
# (empty when absent), NAME.status the exit status (0), and NAME.check, when
# present, a shell script run afterwards in the same directory ($KPATH set;
# exit status 0 passes).  UPDATE=1 rewrites the expected dumps.
# Last, tests/tui/tmux.sh drives the real terminal (skipped without tmux).
# An argument runs only the cases whose names match it, a shell pattern
# (`run.sh stepper`, `run.sh "*"` for all), and not tmux.sh.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${KPATH:=$root/build/kpath}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
for script in "$here"/cases/*.script; do
    [ -e "$script" ] || continue
    name=$(basename "$script" .script)
    case $name in *${1:-}*) ;; *) continue ;; esac
    base=${script%.script}
    dir=$tmp/$name
    mkdir -p "$dir/home" "$dir/state" "$dir/config"
    ln -s "$root/grammars" "$dir/grammars"
    ln -s "$root/tests" "$dir/tests"
    ln -s "$root/themes" "$dir/themes"
    # kpath's build directory: the programs under test (kpath-build/subjects/calc)
    ln -s "$(cd "$(dirname "$KPATH")" && pwd)" "$dir/kpath-build"
    grammar=$(sed -n 's/^#! grammar: *//p' "$script")
    [ -n "$grammar" ] || grammar=grammars/expr.ebnf
    [ "$grammar" = none ] && grammar=
    args=$(sed -n 's/^#! args: *//p' "$script")
    envs=$(sed -n 's/^#! env: *//p' "$script")
    (
        cd "$dir" || exit 2
        # shellcheck disable=SC2086
        env -i PATH="$PATH" TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 \
            HOME="$dir/home" INPUTRC=/dev/null TZ=UTC XDG_STATE_HOME="$dir/state" \
            XDG_CONFIG_HOME="$dir/config" ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
            $envs "$KPATH" --script "$script" $args $grammar >"$dir/.out" 2>"$dir/.err" </dev/null
        echo $? >"$dir/.status"
    )
    ok=1
    want_status=0
    [ -f "$base.status" ] && want_status=$(cat "$base.status")
    got_status=$(cat "$dir/.status")
    if [ "$got_status" != "$want_status" ]; then
        echo "FAIL $name: exit status $got_status, expected $want_status"; ok=0
    fi
    : >"$tmp/empty"
    want_err="$tmp/empty"
    [ -f "$base.err" ] && want_err="$base.err"
    if ! cmp -s "$dir/.err" "$want_err"; then
        echo "FAIL $name: stderr differs:"; diff "$want_err" "$dir/.err" | head -20; ok=0
    fi
    for want in "$base".*.txt; do
        [ -e "$want" ] || continue
        dump=${want#"$base".}
        if [ ! -f "$dir/$dump" ]; then
            echo "FAIL $name: the script wrote no $dump"; ok=0
        elif ! cmp -s "$dir/$dump" "$want"; then
            if [ "${UPDATE:-}" = 1 ]; then
                cp "$dir/$dump" "$want"; echo "updated $want"
            else
                echo "FAIL $name: $dump differs:"; diff "$want" "$dir/$dump" | head -30; ok=0
            fi
        fi
    done
    if [ -f "$base.check" ]; then
        if ! (cd "$dir" && KPATH="$KPATH" sh "$base.check") >"$dir/.check" 2>&1; then
            echo "FAIL $name: $base.check:"; tail -n 20 "$dir/.check"; ok=0
        fi
    fi
    if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
if [ -n "${1:-}" ]; then
    :
elif KPATH="$KPATH" sh "$here/tmux.sh" >"$tmp/tmux.out" 2>&1; then
    passed=$((passed + 1))
    grep -i '^skipped' "$tmp/tmux.out" || true
else
    echo "FAIL tmux end-to-end test:"; tail -n 40 "$tmp/tmux.out"
    failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
