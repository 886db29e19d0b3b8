#!/bin/sh
# An empty literal exports to ANTLR as nothing ('' is refused by ANTLR and by
# kpath's own .g4 reader), so the exported grammar loads again and accepts
# the same inputs: [a], [b] and the empty input (tests/grammars/ok/
# empty-literal.ebnf), and not [] (item is not optional).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$KPATH" convert --to g4 -o "$tmp/e.g4" tests/grammars/ok/empty-literal.ebnf 2>"$tmp/err" ||
    fail "convert: $(cat "$tmp/err")"
"$KPATH" check "$tmp/e.g4" >"$tmp/out" 2>&1 || fail "the export does not load: $(cat "$tmp/out")"
printf '[a]' >"$tmp/1"; printf '[b]' >"$tmp/2"; : >"$tmp/3"; printf '[]' >"$tmp/4"
for s in 1 2 3; do
    "$KPATH" parse "$tmp/e.g4" "$tmp/$s" >/dev/null 2>"$tmp/err" ||
        fail "sample $s does not parse: $(cat "$tmp/err")"
done
"$KPATH" parse "$tmp/e.g4" "$tmp/4" >/dev/null 2>&1 && fail "[] parses"
exit 0
