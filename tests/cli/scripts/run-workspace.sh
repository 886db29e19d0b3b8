#!/bin/sh
# kpath run WORKSPACE -- COMMAND: a workspace file in place of GRAMMAR runs
# the workspace's inputs (its samples and generated inputs, in workspace
# order), written first as the suite RESULTS.inputs/ beside the results.
# Worked out by hand from subjects/calc.c: "1+2" runs add (exit 0), "1/0"
# ends in division_by_zero (exit 3), "-(1)" crashes (SIGSEGV).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
build=$(dirname "$KPATH")
calc=$build/subjects/calc
[ -x "$calc" ] || fail "no $calc (make subjects)"
root=$(pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/ws.kpw" <<WS
kpath-workspace 1
grammar "$root/grammars/arith.ebnf"
start "Expr"
k 2
sample "a.txt" "1+2"
sample "b.txt" "1/0"
sample "c.txt" "-(1)"
end
WS
"$KPATH" run -q -j 2 --gcov "$build/subjects" --results "$tmp/r.jsonl" "$tmp/ws.kpw" -- "$calc" \
    >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "exit status $?"; }
[ "$(cat "$tmp/r.inputs/0001.txt")" = '1+2' ] || fail "r.inputs/0001.txt"
[ "$(cat "$tmp/r.inputs/0003.txt")" = '-(1)' ] || fail "r.inputs/0003.txt"
[ -f "$tmp/r.inputs/manifest.json" ] || fail "no manifest in r.inputs"
outcome() { grep -F "\"input\":\"$tmp/r.inputs/$1\"" "$tmp/r.jsonl" | sed 's/.*"outcome":"\([^"]*\)".*/\1/'; }
[ "$(outcome 0001.txt)" = exit:0 ] || fail "0001: $(outcome 0001.txt)"
[ "$(outcome 0002.txt)" = exit:3 ] || fail "0002: $(outcome 0002.txt)"
[ "$(outcome 0003.txt)" = signal:SIGSEGV ] || fail "0003: $(outcome 0003.txt)"
grep -F "\"input\":\"$tmp/r.inputs/0001.txt\"" "$tmp/r.jsonl" | grep -qF '"fn:add"' || fail "0001 without fn:add"
# the header names the workspace's grammar and start rule
grep -qF "\"grammar\":\"$root/grammars/arith.ebnf\"" "$tmp/r.jsonl" || fail "header: grammar"
grep -qF '"start":"Expr"' "$tmp/r.jsonl" || fail "header: start"
grep -qF 'runs: 3' "$tmp/out" || fail "report: runs"
# --resume: the same workspace, the same files; nothing runs again
"$KPATH" run -q --resume --results "$tmp/r.jsonl" --gcov "$build/subjects" "$tmp/ws.kpw" -- "$calc" \
    >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "--resume: exit status $?"; }
grep -qF '0 runs recorded in' "$tmp/err" || { cat "$tmp/err" >&2; fail "--resume ran again"; }
grep -qF '(3 already there, skipped)' "$tmp/err" || { cat "$tmp/err" >&2; fail "--resume: skipped"; }

# A workspace without inputs is refused at once, saying so.
cat >"$tmp/empty.kpw" <<WS
kpath-workspace 1
grammar "$root/grammars/arith.ebnf"
start "Expr"
end
WS
"$KPATH" run --results "$tmp/e.jsonl" "$tmp/empty.kpw" -- "$calc" >/dev/null 2>"$tmp/err"
status=$?
[ "$status" = 2 ] || fail "empty workspace: exit status $status"
grep -qxF "$tmp/empty.kpw: error: the workspace has no inputs to run: generate some (r, :gen, kpath cover) or load samples first" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "empty workspace: message"; }
[ ! -e "$tmp/e.jsonl" ] || fail "empty workspace: a results file was written"
# A file that is neither a grammar nor a workspace: the loader's error.
printf 'kpath-workspace 9\ngrammar "x"\nend\n' >"$tmp/v9.kpw"
"$KPATH" run --results "$tmp/v.jsonl" "$tmp/v9.kpw" -- "$calc" >/dev/null 2>"$tmp/err"
status=$?
[ "$status" = 2 ] || fail "format 9: exit status $status"
grep -qF "$tmp/v9.kpw:1:1: error: workspace format 9 is not supported" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "format 9: message"; }
exit 0
