#!/bin/sh
# kpath parse stays within --max-memory, and an invalid sample costs no more
# than the same sample made valid.
#
# 1. A valid JSON string of 512 KiB parses and prints under --max-memory 150M
#    with the address space limited to the budget and 64 MiB more: the tree is
#    printed as the forest is walked, not built beside it (which needed more
#    than the limit, and aborted with "out of memory").  Its lines are worked
#    out from grammars/json.ebnf: ~ ws * value | string ~ '"' * '"' ws * (12)
#    and per character char | unescaped [class] (4); with --symbolic the root,
#    ws value string '"' '"' ws (7) and char unescaped [class] (3).
# 2. The same under --max-memory 40M is refused cleanly: exit status 2, the
#    budget named, nothing on stdout.
# 3. N := "0" N | "0" with "(" and 4,000 zeros and no ")": the error is the
#    end of input at 1:4002, where ")" or another "0" may come, within a
#    budget that the valid sample (with ")") fits in.  The error pass used to
#    be quadratic on right recursion: 600 MB, or under this budget an error
#    at 1:264 saying that '0' was unexpected and expected.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

n=524288
{ printf '"'; head -c $n /dev/zero | tr '\0' a; printf '"'; } >"$tmp/string.json"
limit=$(((150 + 64) * 1024)) # KiB
if (ulimit -v $limit && "$KPATH" --version) >/dev/null 2>&1; then
    (ulimit -v $limit && "$KPATH" parse --max-memory 150M grammars/json.ebnf "$tmp/string.json") \
        >"$tmp/out" 2>"$tmp/err"
    status=$?
    [ $status = 0 ] || { cat "$tmp/err"; fail "512 KiB string under --max-memory 150M: status $status"; }
    lines=$(wc -l <"$tmp/out" | tr -d ' ')
    [ "$lines" = $((4 * n + 12)) ] || fail "$lines lines, expected $((4 * n + 12))"
    (ulimit -v $limit && "$KPATH" parse --symbolic --max-memory 150M grammars/json.ebnf \
        "$tmp/string.json") >"$tmp/out" 2>"$tmp/err" || fail "--symbolic: status $?"
    lines=$(wc -l <"$tmp/out" | tr -d ' ')
    [ "$lines" = $((3 * n + 7)) ] || fail "--symbolic: $lines lines, expected $((3 * n + 7))"
    (ulimit -v $limit && "$KPATH" parse --max-memory 40M grammars/json.ebnf "$tmp/string.json") \
        >"$tmp/out" 2>"$tmp/err"
    status=$?
    [ $status = 2 ] || { cat "$tmp/err"; fail "under --max-memory 40M: status $status, expected 2"; }
    grep -q "error: parsing stopped here: it needs more than 40 MiB of memory (--max-memory)" \
        "$tmp/err" || { cat "$tmp/err"; fail "no --max-memory error"; }
    [ -s "$tmp/out" ] && fail "output despite the error"
else
    # AddressSanitizer reserves terabytes of address space up front.
    echo "skipped the address-space limit: $KPATH does not start under ulimit -v $limit"
fi

printf 'S := "(" N ")";\nN := "0" N | "0";\n' >"$tmp/zeros.ebnf"
{ printf '('; head -c 4000 /dev/zero | tr '\0' 0; } >"$tmp/invalid.txt"
{ cat "$tmp/invalid.txt"; printf ')'; } >"$tmp/valid.txt"
"$KPATH" parse --max-memory 4M "$tmp/zeros.ebnf" "$tmp/valid.txt" >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err"; fail "the valid sample does not fit in 4M"; }
for cmd in parse coverage; do
    "$KPATH" $cmd --max-memory 4M "$tmp/zeros.ebnf" "$tmp/invalid.txt" >"$tmp/out" 2>"$tmp/err"
    status=$?
    [ $status = 2 ] || { cat "$tmp/err"; fail "$cmd of the invalid sample: status $status"; }
    grep -q "invalid.txt:1:4002: error: no parse: unexpected end of input; expected one of ')', '0'$" \
        "$tmp/err" || { cat "$tmp/err"; fail "$cmd: not the error at the end of input"; }
done
exit 0
