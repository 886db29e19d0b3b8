#!/bin/sh
# coverage --growth --by-bytes: the growth curve against the bytes of the
# samples so far (how suites are compared by what they write), worked out by
# hand on tests/grammars/ok/growth.ebnf (S := "a" | "b" B; B := "c" | "d"):
# "bc" (2 bytes) covers "b" B "c", B -> "c" and S's and B's first
# expansions: 3/5, 1/2, 2/4 at 2 bytes; "a" (1 byte) adds "a": 4/5, 1/2, 3/4
# at 3; "x" does not parse and counts nowhere, its byte neither; "bd" (2)
# adds "d" and B -> "d": 5/5, 2/2, 4/4 at 5; "bc" again adds nothing, at 7.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
d=$tmp/s
mkdir "$d"
printf 'bc' >"$d/1"
printf 'a' >"$d/2"
printf 'x' >"$d/3-bad"
printf 'bd' >"$d/4"
printf 'bc' >"$d/5"
g=tests/grammars/ok/growth.ebnf

"$KPATH" coverage --growth --by-bytes --csv -k 2 "$g" "$d" >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] || fail "exit status $? with a sample that does not parse"
cat >"$tmp/want" <<CSV
bytes,file,k1_covered,k1_total,k2_covered,k2_total,expansions_covered,expansions_total
0,,0,5,0,2,0,4
2,$d/1,3,5,1,2,2,4
3,$d/2,4,5,1,2,3,4
5,$d/4,5,5,2,2,4,4
7,$d/5,5,5,2,2,4,4
CSV
cmp -s "$tmp/out" "$tmp/want" || fail "CSV: $(diff "$tmp/want" "$tmp/out")"

"$KPATH" coverage --growth --by-bytes -k 1 "$g" "$d/1" "$d/2" >"$tmp/text" 2>"$tmp/err" ||
    fail "text: exit status $?"
cat >"$tmp/want" <<TEXT
2 bytes $d/1: k=1 3/5 (60.0%), expansions 2/4 (50.0%)
3 bytes $d/2: k=1 4/5 (80.0%), expansions 3/4 (75.0%)
total (2 files): k=1 4/5 (80.0%)
expansion coverage: 3/4 (75.0%)
TEXT
cmp -s "$tmp/text" "$tmp/want" || fail "text: $(diff "$tmp/want" "$tmp/text")"

"$KPATH" coverage --growth --by-bytes --json -k 1 "$g" "$d/1" "$d/2" >"$tmp/json" 2>"$tmp/err" ||
    fail "json: exit status $?"
grep -q '"growth": {"samples": 2, "bytes": 3, "coverage": \[{"k": 1, "covered": 4,' "$tmp/json" ||
    fail "json: $(cat "$tmp/json")"

# an axis of the growth curve only
"$KPATH" coverage --by-bytes "$g" "$d/1" >/dev/null 2>"$tmp/err"
[ $? = 2 ] || fail "--by-bytes without --growth: not a usage error"
grep -q -- '--by-bytes is an axis of the growth curve' "$tmp/err" || fail "usage: $(cat "$tmp/err")"
exit 0
