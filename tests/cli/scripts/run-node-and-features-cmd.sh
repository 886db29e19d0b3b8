#!/bin/sh
# Features from V8 (--node-coverage): the functions of a Node.js program that
# ran for each input, by hand from tests/subjects/node-subject.js (skipped,
# saying so, where node is not installed).  Features from a command
# (--features-cmd): each line it prints, with the run's outcome, input and
# directory in its environment; a feature command that fails stops the run.
# An input named twice runs once.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/in"
printf '1+2' >"$tmp/in/a"
printf '2*3' >"$tmp/in/b"
printf '1+2*3' >"$tmp/in/c"
printf '7' >"$tmp/in/d"
features() { grep -F "\"input\":\"$tmp/in/$1\"" "$2" | sed 's/.*"features":\[\(.*\)\]}$/\1/' | tr -d '"'; }

if command -v node >/dev/null 2>&1; then
    "$KPATH" run -q --node-coverage --results "$tmp/n.jsonl" --start Expr grammars/arith.ebnf \
        "$tmp/in" -- node "$PWD/tests/subjects/node-subject.js" >/dev/null 2>"$tmp/err" ||
        { cat "$tmp/err" >&2; fail "node run: exit status $?"; }
    [ "$(features a "$tmp/n.jsonl")" = "exit:0,fn:main,fn:sum" ] || fail "node a: $(features a "$tmp/n.jsonl")"
    [ "$(features b "$tmp/n.jsonl")" = "exit:0,fn:main,fn:product" ] || fail "node b: $(features b "$tmp/n.jsonl")"
    [ "$(features c "$tmp/n.jsonl")" = "exit:0,fn:main,fn:product,fn:sum" ] || fail "node c: $(features c "$tmp/n.jsonl")"
    [ "$(features d "$tmp/n.jsonl")" = "exit:0,fn:main" ] || fail "node d: $(features d "$tmp/n.jsonl")"
else
    echo "SKIP: node is not installed; the V8 coverage part did not run"
fi

# A feature command: its lines are features, with the run's facts in its environment.
"$KPATH" run -q --results "$tmp/f.jsonl" --start Expr grammars/arith.ebnf "$tmp/in" \
    --features-cmd 'echo "outcome-was:$KPATH_OUTCOME"; echo; echo "size:$(wc -c < "$KPATH_INPUT_FILE")"; test -d "$KPATH_RUN_DIR/cwd" && echo has-run-dir; ls' \
    --keep-going -- sh -c 'touch made-by-run; exit 4' >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "features-cmd: exit status $?"; }
[ "$(features a "$tmp/f.jsonl")" = "exit:4,has-run-dir,made-by-run,outcome-was:exit:4,size:3" ] ||
    fail "features-cmd a: $(features a "$tmp/f.jsonl")"
[ "$(features c "$tmp/f.jsonl")" = "exit:4,has-run-dir,made-by-run,outcome-was:exit:4,size:5" ] ||
    fail "features-cmd c: $(features c "$tmp/f.jsonl")"

# An input named twice (here: itself and through its directory) runs once.
"$KPATH" run -q --results "$tmp/d.jsonl" --start Expr grammars/arith.ebnf "$tmp/in/a" "$tmp/in" \
    -- cat >/dev/null 2>&1 || fail "repeated input: exit status $?"
[ "$(grep -c '"input"' "$tmp/d.jsonl")" = 4 ] || fail "repeated input ran twice"

# A feature command that fails is an error, not an empty set of features.
"$KPATH" run -q --results "$tmp/g.jsonl" --start Expr grammars/arith.ebnf "$tmp/in" \
    --features-cmd 'echo broken >&2; exit 3' -- true >/dev/null 2>"$tmp/err"
status=$?
[ "$status" = 1 ] || fail "failing features-cmd: exit status $status"
grep -qE "^$tmp/in/[abcd]: error: the feature command 'echo broken >&2; exit 3' failed \(exit:3\): broken\$" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "failing features-cmd: message"; }
exit 0
