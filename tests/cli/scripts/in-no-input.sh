#!/bin/sh
# A k-path through a class that matches no character (or a quantifier {0})
# is in no derivation at all: reported as such, naming the element, never
# as "needs depth 4294967295" (the search's "unreachable" value).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# Nodes in pre-order: |_0 "a"_1 ~_2 "b"_3 X_4, then X's |_5 "x"_6 ~_7 "y"_8
# [^...]_9.  The 2-paths: S's X_4 is the only reference, so X_4 -> "x"_6
# (in "bx"), X_4 -> "y"_8 and X_4 -> [^...]_9 (both behind the empty class).
printf 'S := "a" | "b" X;\nX := "x" | "y" [^\\x00-\\u{10FFFF}];\n' >"$tmp/t.ebnf"
"$KPATH" cover "$tmp/t.ebnf" >"$tmp/out" 2>"$tmp/err" || fail "cover: exit status $?"
grep -q 4294967295 "$tmp/err" && fail "cover prints an infinite depth"
grep '^  X_4' "$tmp/err" >"$tmp/got"
cat >"$tmp/want" <<'END'
  X_4 -> "y"_8 in no input: [^\x00-\u{10FFFF}] in rule X matches no character
  X_4 -> [^\x00-\u{10FFFF}]_9 in no input: [^\x00-\u{10FFFF}] in rule X matches no character
END
cmp -s "$tmp/want" "$tmp/got" || { diff "$tmp/want" "$tmp/got" >&2; fail "cover's uncovered lines"; }
"$KPATH" why "$tmp/t.ebnf" 'X_4 -> "y"_8' >"$tmp/out" 2>/dev/null
grep -qx '  - in no input: \[^\\x00-\\u{10FFFF}\] in rule X matches no character' "$tmp/out" ||
    fail "why: $(cat "$tmp/out")"
"$KPATH" why --json "$tmp/t.ebnf" 'X_4 -> "y"_8' 2>/dev/null | grep -q '"needed_depth": null' ||
    fail "why --json: needed_depth is not null"

# A quantifier {0}: nodes |_0 "a"_1 ~_2 "b"_3 {0}_4 C_5, C's "c"_6.
printf 'S := "a" | "b" C{0};\nC := "c";\n' >"$tmp/q.ebnf"
"$KPATH" cover -k 1 "$tmp/q.ebnf" >"$tmp/out" 2>"$tmp/err" || fail "q: exit status $?"
grep '^  [C"]' "$tmp/err" >"$tmp/got"
cat >"$tmp/want" <<'END'
  C_5 in no input: {0} in rule S allows no repetition
  "c"_6 in no input: {0} in rule S allows no repetition
END
cmp -s "$tmp/want" "$tmp/got" || { diff "$tmp/want" "$tmp/got" >&2; fail "q: uncovered lines"; }
exit 0
