#!/bin/sh
# The start rule of an ANTLR grammar without EOF: the entry point that
# grammars-v4's desc.xml beside the grammar names, else the first parser
# rule when nothing refers to it, else the first rule nothing refers to.
# The rules unreachable from it are said in one warning with their count.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/d" "$tmp/e"
printf "grammar G;\na : 'x' b ;\nb : 'y' ;\nc : 'z' ;\nd : 'w' ;\n" >"$tmp/d/G.g4"
cat >"$tmp/d/desc.xml" <<'X'
<?xml version="1.0" encoding="UTF-8" ?>
<desc>
   <targets>Java</targets>
   <entry-point>c</entry-point>
</desc>
X
"$KPATH" info "$tmp/d/G.g4" >"$tmp/out" 2>"$tmp/err" || fail "info: $(cat "$tmp/err")"
grep -q '^start rule: c$' "$tmp/out" || fail "desc.xml's entry point not taken: $(grep start "$tmp/out")"
[ "$(wc -l <"$tmp/err")" = 1 ] || fail "not one warning: $(cat "$tmp/err")"
grep -q "G.g4:2:1: warning: 3 rules are unreachable from the start rule 'c' (give --start to choose another); the first is here: 'a', 'b', 'd'$" "$tmp/err" ||
    fail "warning: $(cat "$tmp/err")"
# No desc.xml: b is referenced by a, a by nothing.
printf "grammar H;\nb : 'y' ;\na : b 'x' ;\n" >"$tmp/e/H.g4"
"$KPATH" info "$tmp/e/H.g4" >"$tmp/out" 2>"$tmp/err" || fail "info H: $(cat "$tmp/err")"
grep -q '^start rule: a$' "$tmp/out" || fail "H: $(grep start "$tmp/out")"
[ -s "$tmp/err" ] && fail "H: $(cat "$tmp/err")"
# --start still wins.
"$KPATH" info --start d "$tmp/d/G.g4" 2>/dev/null | grep -q '^start rule: d$' || fail "--start d"
exit 0
