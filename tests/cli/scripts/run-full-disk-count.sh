#!/bin/sh
# A results file on a full device (simulated: RLIMIT_FSIZE of 3000 bytes
# with SIGXFSZ ignored, so a write fails with EFBIG part-way through a
# record): kpath run stops, the record cut short is not left in the file,
# and "N of 20 runs recorded" counts exactly the whole records there
# (issue 38 item 11: it counted the one cut short).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v prlimit >/dev/null 2>&1 || { echo "SKIP: no prlimit (util-linux)"; exit 0; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/in"
for i in 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29; do printf '%s' $i >"$tmp/in/$i"; done
sh -c "trap '' XFSZ; exec prlimit --fsize=3000 \"\$0\" \"\$@\"" "$KPATH" run -q -j 1 \
    --results "$tmp/r.jsonl" grammars/expr.ebnf "$tmp/in" -- true >/dev/null 2>"$tmp/err"
status=$?
[ "$status" = 1 ] || { cat "$tmp/err" >&2; fail "exit status $status, expected 1"; }
grep -qF "cannot write: File too large" "$tmp/err" || { cat "$tmp/err" >&2; fail "no write error"; }
whole=$(grep -c '^{"input".*}$' "$tmp/r.jsonl")
lines=$(($(wc -l <"$tmp/r.jsonl") - 1))
[ "$whole" -ge 1 ] || fail "no record fits: make the limit larger"
[ "$lines" = "$whole" ] || fail "$lines record lines, $whole whole"
[ "$(tail -c 1 "$tmp/r.jsonl" | od -An -c | tr -d ' ')" = '\n' ] || fail "the file ends with a record cut short"
grep -qxF "kpath run: stopped: $whole of 20 runs recorded in $tmp/r.jsonl" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "the count is not the $whole whole records"; }
exit 0
