#!/bin/sh
# A count that does not fit in 64 bits reads "more than 2^64" wherever it is
# shown (issue 17.7), never as the digits of the saturated value
# (18446744073709551615, or "more than 18446744073709551614").
#
# The grammar S := "a" | S S ... S (16 references) has 17 symbolic nodes: "a"
# and the 16 references to S, each of which reaches "a" and all 16 references
# through S's alternation and sequence.  So c_1(S) = 1, c_2(S) = 17 and
# c_k(S) = 16 c_(k-1)(S) for k >= 3, and |paths_k| = 16 c_k(S) = 17 * 16^(k-1)
# for k >= 2: k=15 is 17 * 2^56 = 1224979098644774912 (fits), k=16 is
# 17 * 2^60 > 2^64 (does not).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=$tmp/wide.ebnf
printf 'S := "a" | S S S S S S S S S S S S S S S S;\n' >"$g"
printf 'a' >"$tmp/a.txt"

"$KPATH" info -k 16 "$g" >"$tmp/out" 2>&1 || fail "info: $(cat "$tmp/out")"
grep -qxF '  k=15: 1224979098644774912' "$tmp/out" || fail "info k=15: $(cat "$tmp/out")"
grep -qxF '  k=16: more than 2^64' "$tmp/out" || fail "info k=16: $(cat "$tmp/out")"

[ "$("$KPATH" paths --count -k 15 "$g")" = 1224979098644774912 ] || fail "paths --count -k 15"
[ "$("$KPATH" paths --count -k 16 "$g")" = "more than 2^64" ] || fail "paths --count -k 16"

"$KPATH" coverage -k 16 --uncovered "$g" "$tmp/a.txt" >"$tmp/out" 2>"$tmp/err"
# With --uncovered the report goes to stderr; "a" alone covers one 1-path.
grep -q '^total (1 file): k=1 1/17 (5.8%), .*, k=15 0/1224979098644774912 (0.0%), k=16 0/more than 2^64 (0.0%)$' \
    "$tmp/err" || fail "coverage totals: $(cat "$tmp/err")"
grep -qxF 'kpath coverage: the grammar has more than 2^64 16-paths; too many to list the uncovered ones' \
    "$tmp/err" || fail "coverage --uncovered: $(cat "$tmp/err")"

# The explorer's first message names the k-paths of the workspace's k.
cd "$tmp" || exit 1
export HOME="$tmp" XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config"
printf ':k 16\n:save w.kpw\n' >save.script
"$KPATH" --script save.script --size 100x30 "$g" >/dev/null 2>&1 || fail "saving the workspace"
printf ':dump start\n' >open.script
"$KPATH" --script open.script --size 100x30 --workspace w.kpw >/dev/null 2>&1 || fail "opening it"
grep -v '^-- ' start | tail -n 1 | grep -q '^wide.ebnf: 1 rules, more than 2^64 16-paths;' ||
    fail "the explorer's first message: $(grep -v '^-- ' start | tail -n 1)"
grep -q 18446744073709551 start && fail "the digits of the saturated count on screen"
exit 0
