#!/bin/sh
# --skip-invalid, alike in coverage, learn and reduce: the inputs that cannot
# be read or parsed are listed, every one as FILE:LINE:COL (a missing file
# without a position), as warnings under "kpath CMD: N of M NOUNs left out
# (--skip-invalid):", the exit status is 0, and what is measured, learned or
# kept is exactly what the valid inputs alone give.  Without it: the same
# list as errors, exit status 2, and reduce writes nothing (QA finding: the
# user must see every failing input to decide).  Only when no input is left
# does --skip-invalid fail.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
g=grammars/expr.ebnf
valid="tests/samples/expr/valid/add.txt tests/samples/expr/valid/nested.txt"
bad="tests/samples/expr/invalid/close-paren.txt no/such/file tests/samples/expr/invalid/unclosed.txt"
# the failures, by hand: "x+4)" stops at the ')' (col 4), "2*(y" at its end (col 5)
cat >"$tmp/failures" <<'EOT'
no/such/file: SEV: cannot read: No such file or directory
tests/samples/expr/invalid/close-paren.txt:1:4: SEV: no parse: unexpected ')'; expected one of '%', '*', '+', '-', '/', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', end of input
tests/samples/expr/invalid/unclosed.txt:1:5: SEV: no parse: unexpected end of input; expected one of '%', ')', '*', '+', '-', '/'
EOT
# the failure lines of $1 (stderr), sorted: the order differs by command
lines() { grep -v '^kpath ' "$1" | grep ': \(error\|warning\): ' | sort; }
check() { # CMD NOUN HEADER-WITHOUT: args...
    cmd=$1 noun=$2 what=$3; shift 3
    # shellcheck disable=SC2086
    "$KPATH" $cmd "$@" $g $valid $bad >"$tmp/out" 2>"$tmp/err"
    st=$?
    [ $st = 2 ] || fail "$cmd: exit status $st without --skip-invalid"
    grep -qxF "kpath $cmd: 3 of 5 ${noun}s $what:" "$tmp/err" || fail "$cmd: $(cat "$tmp/err")"
    sed 's/SEV/error/' "$tmp/failures" | sort >"$tmp/want"
    lines "$tmp/err" >"$tmp/got"
    cmp -s "$tmp/want" "$tmp/got" || { diff "$tmp/want" "$tmp/got"; fail "$cmd: the errors"; }
    # shellcheck disable=SC2086
    "$KPATH" $cmd --skip-invalid "$@" $g $valid $bad >"$tmp/skip" 2>"$tmp/err" ||
        fail "$cmd --skip-invalid: exit status $?: $(cat "$tmp/err")"
    grep -qxF "kpath $cmd: 3 of 5 ${noun}s left out (--skip-invalid):" "$tmp/err" ||
        fail "$cmd --skip-invalid: $(cat "$tmp/err")"
    sed 's/SEV/warning/' "$tmp/failures" | sort >"$tmp/want"
    lines "$tmp/err" >"$tmp/got"
    cmp -s "$tmp/want" "$tmp/got" || { diff "$tmp/want" "$tmp/got"; fail "$cmd --skip-invalid: the warnings"; }
    # shellcheck disable=SC2086
    "$KPATH" $cmd "$@" $g $valid >"$tmp/alone" 2>/dev/null || fail "$cmd on the valid inputs: $?"
    # shellcheck disable=SC2086
    "$KPATH" $cmd --skip-invalid "$@" $g $bad >/dev/null 2>"$tmp/err" &&
        fail "$cmd --skip-invalid with no valid input: exit status 0"
}
check coverage sample "failed (not counted above)" -k 2
# coverage: the same lines per file; the total says what failed, as without
grep -v '^total' "$tmp/skip" >"$tmp/a"
grep -v '^total' "$tmp/alone" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/b" "$tmp/a"; fail "coverage --skip-invalid measured other things"; }
grep -q '^total (2 of 5 files; 3 failed): ' "$tmp/skip" || fail "coverage total: $(cat "$tmp/skip")"
check learn sample "could not be learned from"
cmp -s "$tmp/skip" "$tmp/alone" || { diff "$tmp/alone" "$tmp/skip"; fail "learn --skip-invalid learned other things"; }
check reduce input "could not be measured; nothing was reduced (--skip-invalid reduces the others)" -k 2
[ ! -s "$tmp/out" ] || fail "reduce refused but printed: $(cat "$tmp/out")"
# the report is the valid inputs' own, and one more line naming the count
grep -v '^left out: ' "$tmp/skip" >"$tmp/a"
cmp -s "$tmp/a" "$tmp/alone" || { diff "$tmp/alone" "$tmp/a"; fail "reduce --skip-invalid kept other things"; }
grep -qxF 'left out: 3 inputs that could not be read or parsed (--skip-invalid; listed on stderr)' "$tmp/skip" ||
    fail "reduce: $(cat "$tmp/skip")"
# the manifest names them; without --skip-invalid, -o writes nothing
# shellcheck disable=SC2086
"$KPATH" reduce -o "$tmp/none" $g $valid $bad 2>/dev/null && fail "reduce -o with failures: 0"
[ ! -e "$tmp/none" ] || fail "reduce -o refused but made $tmp/none"
# shellcheck disable=SC2086
"$KPATH" reduce --skip-invalid -o "$tmp/dir" $g $valid $bad >/dev/null 2>&1 || fail "reduce -o --skip-invalid: $?"
grep -qF '"left_out": ["no/such/file", "tests/samples/expr/invalid/close-paren.txt", "tests/samples/expr/invalid/unclosed.txt"]' "$tmp/dir/manifest.json" ||
    fail "manifest: $(head -12 "$tmp/dir/manifest.json")"
exit 0
