#!/bin/sh
# A file that is no grammar gets a few errors, not thousands.
# - kpath's own files in GRAMMAR's place (explain's GRAMMAR and RESULTS
#   swapped, a workspace given to info) are refused as what they are, in one
#   line, instead of being read as .ebnf with an error on every line;
# - any other file shows its first 20 errors and a note of how many more
#   there are; kpath check shows every one of them.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root" || exit 1

# expect STATUS STDERR-FILE COMMAND...: the status, and stderr exactly the file
expect() {
    want_status=$1 want_err=$2
    shift 2
    "$KPATH" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    status=$?
    [ "$status" = "$want_status" ] || fail "$*: exit status $status, not $want_status"
    cmp -s "$tmp/err" "$want_err" || { diff "$want_err" "$tmp/err" | head -20; fail "$*: stderr differs"; }
    [ ! -s "$tmp/out" ] || fail "$*: output on stdout: $(head -3 "$tmp/out")"
}

# a real results file, of one run of true
printf '1+2' >"$tmp/one.txt"
"$KPATH" run -j 1 --results "$tmp/r.jsonl" grammars/expr.ebnf "$tmp/one.txt" -- /bin/true \
    >/dev/null 2>&1 || fail "kpath run"
[ "$(wc -l <"$tmp/r.jsonl")" -ge 2 ] || fail "the results file has no record"
echo "$tmp/r.jsonl: error: this is a results file (kpath run writes them), not a grammar: is it in GRAMMAR's place? (--help gives the order of the arguments)" >"$tmp/want"
expect 2 "$tmp/want" explain "$tmp/r.jsonl" grammars/expr.ebnf
expect 2 "$tmp/want" info "$tmp/r.jsonl"

# a workspace: the explorer's :save writes this first line
printf 'kpath-workspace 1\ngrammar grammars/expr.ebnf\n' >"$tmp/w.kpath"
echo "$tmp/w.kpath: error: this is a workspace (the explorer's :save writes them), not a grammar: is it in GRAMMAR's place? (--help gives the order of the arguments)" >"$tmp/want"
expect 2 "$tmp/want" paths "$tmp/w.kpath"

# 25 lines with one error each: 20 errors, then how many more
: >"$tmp/want"
i=1
while [ $i -le 25 ]; do
    echo '@' >>"$tmp/bad.ebnf"
    [ $i -le 20 ] && echo "$tmp/bad.ebnf:$i:1: error: unexpected character '@'" >>"$tmp/want"
    i=$((i + 1))
done
echo "$tmp/bad.ebnf: note: 5 more errors not shown ('kpath check $tmp/bad.ebnf' lists every one)" >>"$tmp/want"
expect 2 "$tmp/want" info "$tmp/bad.ebnf"
# kpath check: all 25
"$KPATH" check "$tmp/bad.ebnf" >/dev/null 2>"$tmp/err"
[ $? = 2 ] || fail "check: exit status"
[ "$(grep -c ": error: unexpected character '@'" "$tmp/err")" = 25 ] || fail "check shows $(wc -l <"$tmp/err") lines, not 25 errors"
grep -q 'not shown' "$tmp/err" && fail "check left some out"
# 20 errors exactly: no note
head -n 20 "$tmp/bad.ebnf" >"$tmp/twenty.ebnf"
"$KPATH" info "$tmp/twenty.ebnf" >/dev/null 2>"$tmp/err"
[ "$(wc -l <"$tmp/err")" = 20 ] || fail "20 errors shown as $(wc -l <"$tmp/err") lines"
echo "not-a-grammar: ok"
