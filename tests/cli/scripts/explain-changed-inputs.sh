#!/bin/sh
# explain checks, as the runs report does, that a record's input is still
# the one the program ran on (tests/explain/expr/changed.jsonl): 0001 has its
# own SHA-256 and is read; 0002 and bad.txt have the hash of "x" and are
# skipped as changed (bad.txt, which does not parse, says changed rather
# than where it stops parsing); 0003 has no input_sha256 and 0004 an empty
# one (written without the hash), read without a check and without a word.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
r=tests/explain/expr/changed.jsonl
"$KPATH" explain -k 1 grammars/expr.ebnf $r >"$tmp/out" 2>"$tmp/err" ||
    fail "exit status $?: $(cat "$tmp/err")"
cat >"$tmp/want" <<EOT
tests/explain/expr/bad.txt: warning: changed since it ran (input skipped)
tests/explain/expr/train/0002.txt: warning: changed since it ran (input skipped)
kpath explain: 2 inputs of $r skipped (not readable, changed since the run, or not parsed)
EOT
diff "$tmp/want" "$tmp/err" >&2 || fail "stderr differs"
head -n 1 "$tmp/out" | grep -qx "3 inputs of $r (2 skipped), 3 for training; .*" ||
    fail "not 3 inputs read: $(head -n 1 "$tmp/out")"
# fn:paren (only 0001, "(x)") and fn:mul_add (only 0003) are trainable
# among the three read; without 0001 or 0003 they would not be.
grep -q "^fn:paren  (reached by 1 of 3 training inputs" "$tmp/out" || fail "fn:paren: $(cat "$tmp/out")"
grep -q "^fn:mul_add  (reached by 1 of 3 training inputs" "$tmp/out" || fail "fn:mul_add: $(cat "$tmp/out")"
exit 0
