#!/bin/sh
# Issue 38 item 7: learn -o OUT leaves an existing OUT untouched when the
# command fails (every sample invalid, or one invalid without
# --skip-invalid), as reduce does; a run that succeeds replaces it.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo 'the old output' >"$tmp/out"
printf 'x+' >"$tmp/bad1" && printf '((' >"$tmp/bad2" && printf '1+2' >"$tmp/good"
"$KPATH" learn -o "$tmp/out" grammars/expr.ebnf "$tmp/bad1" "$tmp/bad2" 2>"$tmp/err"
[ $? = 2 ] || fail "all invalid: exit status not 2"
[ "$(cat "$tmp/out")" = 'the old output' ] || fail "all invalid: OUT replaced"
"$KPATH" learn --skip-invalid -o "$tmp/out" grammars/expr.ebnf "$tmp/bad1" 2>"$tmp/err"
[ $? = 2 ] || fail "--skip-invalid, nothing left: exit status not 2"
[ "$(cat "$tmp/out")" = 'the old output' ] || fail "--skip-invalid, nothing left: OUT replaced"
"$KPATH" learn -o "$tmp/out" grammars/expr.ebnf "$tmp/good" "$tmp/bad1" 2>"$tmp/err"
[ $? = 2 ] || fail "one invalid: exit status not 2"
[ "$(cat "$tmp/out")" = 'the old output' ] || fail "one invalid: OUT replaced"
ls -a "$tmp" | grep -q '\.tmp' && fail "a temporary file is left"
"$KPATH" learn -o "$tmp/out" grammars/expr.ebnf "$tmp/good" 2>"$tmp/err" || fail "valid: failed"
"$KPATH" check "$tmp/out" 2>/dev/null || fail "valid: OUT does not load"
exit 0
