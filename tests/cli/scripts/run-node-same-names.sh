#!/bin/sh
# Issue 32, item 3: same-named functions stay distinct features under
# --node-coverage.  tests/subjects/node-twins.js has two objects with a
# start() each: each becomes fn:NAME@FILE:LINE, FILE the script's base name
# and LINE where the function starts; a name no other function has stays
# fn:NAME (main).  adder.end has a twin nested in a function that never
# runs, which V8 does not report: it is fn:end@node-twins.js:11 all the same
# (the source has two), so its name cannot change with what ran.  Lines by
# hand from the source.
# Skipped, saying so, where node is not installed.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v node >/dev/null 2>&1 || { echo "SKIP: node is not installed"; exit 0; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/in"
printf '1+2' >"$tmp/in/a"
printf '2*3' >"$tmp/in/b"
printf '1+2*3' >"$tmp/in/c"
printf '7' >"$tmp/in/d"
features() { grep -F "\"input\":\"$tmp/in/$1\"" "$tmp/n.jsonl" | sed 's/.*"features":\[\(.*\)\]}$/\1/' | tr -d '"'; }
"$KPATH" run -q --node-coverage --results "$tmp/n.jsonl" --start Expr grammars/arith.ebnf \
    "$tmp/in" -- node "$PWD/tests/subjects/node-twins.js" >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "node run: exit status $?"; }
[ "$(features a)" = "exit:0,fn:end@node-twins.js:11,fn:main,fn:start@node-twins.js:10" ] ||
    fail "a: $(features a)"
[ "$(features b)" = "exit:0,fn:end@node-twins.js:11,fn:main,fn:start@node-twins.js:14" ] ||
    fail "b: $(features b)"
[ "$(features c)" = "exit:0,fn:end@node-twins.js:11,fn:main,fn:start@node-twins.js:10,fn:start@node-twins.js:14" ] ||
    fail "c: $(features c)"
[ "$(features d)" = "exit:0,fn:end@node-twins.js:11,fn:main" ] || fail "d: $(features d)"
exit 0
