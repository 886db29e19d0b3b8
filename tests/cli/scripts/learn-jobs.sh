#!/bin/sh
# kpath learn -j N: samples parsed by N threads give the same output as
# -j 1, byte for byte (stdout, stderr, exit status, the file of -o), with
# failures, ambiguous samples and --invert: the counts are sums, so the
# workers' parts add up to the same table.  A learned table must depend on
# the samples (not the same for every corpus).  (-j 0: coverage-jobs.sh.)
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
d=$tmp/corpus
mkdir -p "$d"
"$KPATH" gen --strategy random -n 40 --seed 3 -o "$d/gen" grammars/json.ebnf >/dev/null 2>&1 ||
    fail "gen: status $?"
cp -r tests/samples/json "$d/given"

same() { # name, then the arguments after `learn`
    name=$1; shift
    "$KPATH" learn -o "$tmp/1.ebnf" "$@" >"$tmp/1.out" 2>"$tmp/1.err"; s1=$?
    sed "s|$tmp/1.ebnf|OUT|" "$tmp/1.err" >"$tmp/1.err.n"
    for j in 2 3 8; do
        "$KPATH" learn -j $j -o "$tmp/j.ebnf" "$@" >"$tmp/j.out" 2>"$tmp/j.err"; sj=$?
        sed "s|$tmp/j.ebnf|OUT|" "$tmp/j.err" >"$tmp/j.err.n"
        [ $s1 = $sj ] || fail "$name: -j $j exit status $sj, -j 1: $s1"
        cmp -s "$tmp/1.out" "$tmp/j.out" || fail "$name: -j $j stdout differs"
        cmp -s "$tmp/1.err.n" "$tmp/j.err.n" || fail "$name: -j $j stderr differs: $(diff "$tmp/1.err.n" "$tmp/j.err.n" | head)"
        cmp -s "$tmp/1.ebnf" "$tmp/j.ebnf" || fail "$name: -j $j grammar differs: $(diff "$tmp/1.ebnf" "$tmp/j.ebnf" | head)"
    done
}

# (--skip-invalid: without it a failure leaves -o's file unwritten.)
same mixed --skip-invalid grammars/json.ebnf "$d/given" "$d/gen"
grep -q 'left out (--skip-invalid)' "$tmp/1.err" || fail "mixed: no failures reported: $(cat "$tmp/1.err")"
grep -q '^wrote .*: probabilities from [0-9]* samples$' "$tmp/1.err" || fail "mixed: $(cat "$tmp/1.err")"
cp "$tmp/1.ebnf" "$tmp/mixed.ebnf"
same generated-only grammars/json.ebnf "$d/gen"
cmp -s "$tmp/1.ebnf" "$tmp/mixed.ebnf" && fail "the same table from different corpora"
same inverted --invert grammars/json.ebnf "$d/gen"
same ambiguous tests/samples/ambiguous/catalan.ebnf tests/samples/ambiguous/a.txt \
    tests/samples/ambiguous/catalan-37.txt tests/samples/ambiguous/catalan-38.txt
grep -q ': ambiguous (' "$tmp/1.err" || fail "ambiguous: not reported: $(cat "$tmp/1.err")"

exit 0
