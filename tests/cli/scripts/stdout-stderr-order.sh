#!/bin/sh
# When stdout and stderr go to the same file or pipe (`2>&1 | tee log`),
# kpath writes stdout a line at a time, so the two come in the order they
# were made, as on a terminal; otherwise stdout is buffered in large blocks.
# `kpath learn` prints the learned grammar (stdout) and then lists the
# samples it could not learn from (stderr): together, the list comes last.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$KPATH" learn grammars/arith.ebnf tests/samples/arith >"$tmp/both" 2>&1
[ $? = 2 ] || fail "learn with invalid samples: exit status not 2"
"$KPATH" learn grammars/arith.ebnf tests/samples/arith >"$tmp/out" 2>"$tmp/err"
[ -s "$tmp/out" ] && [ -s "$tmp/err" ] || fail "learn printed nothing on one stream"
# Together: all of stdout, then all of stderr, each unchanged.
cat "$tmp/out" "$tmp/err" | cmp -s - "$tmp/both" ||
    fail "stdout and stderr together are not stdout then stderr: $(head -n 3 "$tmp/both")"
# Through one pipe, too.
"$KPATH" learn grammars/arith.ebnf tests/samples/arith 2>&1 | cat >"$tmp/piped"
cmp -s "$tmp/both" "$tmp/piped" || fail "through a pipe the order differs: $(head -n 3 "$tmp/piped")"
exit 0
