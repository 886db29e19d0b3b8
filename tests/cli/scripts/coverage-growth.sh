#!/bin/sh
# coverage --growth: the growth curve of samples, worked out by hand on
# tests/grammars/ok/growth.ebnf (S := "a" | "b" B; B := "c" | "d"): five
# 1-paths ("a" "b" B "c" "d"), two 2-paths (B -> "c", B -> "d") and four
# expansions (S's two alternatives, B's two).  In order: "bc" covers "b" B "c",
# B -> "c" and S -> "b" B, B -> "c"; "a" adds "a" and S -> "a"; a sample that
# does not parse counts nowhere; "bd" adds "d", B -> "d" and B -> "d"
# (everything); "bc" again adds nothing.  A file name with a comma is quoted.
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
printf 'bd' >"$d/4,bd"
printf 'bc' >"$d/5"
g=tests/grammars/ok/growth.ebnf

"$KPATH" coverage --growth --csv -k 2 "$g" "$d" >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] || fail "exit status $? with a sample that does not parse"
cat >"$tmp/want" <<CSV
samples,file,k1_covered,k1_total,k2_covered,k2_total,expansions_covered,expansions_total
0,,0,5,0,2,0,4
1,$d/1,3,5,1,2,2,4
2,$d/2,4,5,1,2,3,4
3,"$d/4,bd",5,5,2,2,4,4
4,$d/5,5,5,2,2,4,4
CSV
cmp -s "$tmp/out" "$tmp/want" || fail "CSV: $(diff "$tmp/want" "$tmp/out")"
grep -qxF 'total (4 of 5 files; 1 failed): k=1 5/5 (100.0%), k=2 2/2 (100.0%)' "$tmp/err" ||
    fail "report on stderr: $(cat "$tmp/err")"
grep -qxF 'expansion coverage: 4/4 (100.0%)' "$tmp/err" || fail "expansions: $(cat "$tmp/err")"
grep -q "^$d/3-bad:1:1: error: no parse" "$tmp/err" || fail "failure not listed: $(cat "$tmp/err")"

# The text form: the same figures, one line per sample that parsed.
"$KPATH" coverage --growth -k 1 "$g" "$d/1" "$d/2" >"$tmp/text" 2>"$tmp/err" ||
    fail "text: exit status $?"
cat >"$tmp/want" <<TEXT
1 $d/1: k=1 3/5 (60.0%), expansions 2/4 (50.0%)
2 $d/2: k=1 4/5 (80.0%), expansions 3/4 (75.0%)
total (2 files): k=1 4/5 (80.0%)
expansion coverage: 3/4 (75.0%)
TEXT
cmp -s "$tmp/text" "$tmp/want" || fail "text: $(diff "$tmp/want" "$tmp/text")"
exit 0
