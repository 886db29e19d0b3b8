#!/bin/sh
# kpath coverage -j N: files parsed at once give the same report as -j 1,
# byte for byte (stdout, stderr, exit status), with failures, ambiguous
# samples, pins, --json and --uncovered; -j 0 is a usage error.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
d=$tmp/corpus
mkdir -p "$d"
# greedy's 15 inputs as made (--keep-redundant): cover's last pass would
# graft them into fewer (9), and the check below wants 15 files measured.
"$KPATH" gen -k 3 --keep-redundant -o "$d/gen" grammars/json.ebnf >/dev/null 2>&1 ||
    fail "gen: status $?"
cp -r tests/samples/json "$d/given"

same() { # name, then the arguments after `coverage`
    name=$1; shift
    "$KPATH" coverage "$@" >"$tmp/1.out" 2>"$tmp/1.err"; s1=$?
    for j in 2 3 8; do
        "$KPATH" coverage -j $j "$@" >"$tmp/j.out" 2>"$tmp/j.err"; sj=$?
        [ $s1 = $sj ] || fail "$name: -j $j exit status $sj, -j 1: $s1"
        cmp -s "$tmp/1.out" "$tmp/j.out" || fail "$name: -j $j stdout differs: $(diff "$tmp/1.out" "$tmp/j.out" | head)"
        cmp -s "$tmp/1.err" "$tmp/j.err" || fail "$name: -j $j stderr differs: $(diff "$tmp/1.err" "$tmp/j.err" | head)"
    done
}

same text -k 3 grammars/json.ebnf "$d/given" "$d/gen"
grep -q '^total (.* of .* files; 9 failed)' "$tmp/1.out" || fail "text: no failures counted: $(tail -1 "$tmp/1.out")"
[ "$(grep -c ': k=1' "$tmp/1.out")" -ge 15 ] || fail "text: too few files measured"
same json --json -k 2 grammars/json.ebnf "$d/gen" "$d/given"
same uncovered --uncovered -k 2 grammars/json.ebnf "$d/gen"
same pinned -k 2 --pin value_1 grammars/json.ebnf "$d/gen"
same ambiguous -k 2 tests/samples/ambiguous/catalan.ebnf tests/samples/ambiguous/a.txt \
    tests/samples/ambiguous/catalan-37.txt tests/samples/ambiguous/catalan-38.txt
grep -q 'parse trees' "$tmp/1.out" || fail "ambiguous: no tree counts: $(cat "$tmp/1.out")"

# -j 0, for every command that parses files in threads
for c in coverage learn reduce; do
    "$KPATH" $c -j 0 grammars/json.ebnf "$d/gen" >"$tmp/out" 2>"$tmp/err" </dev/null
    [ $? = 2 ] || fail "$c -j 0 must exit with status 2"
    grep -qF "kpath $c: -j must be a whole number from 1 to 1024, not '0'" "$tmp/err" ||
        fail "$c -j 0: $(cat "$tmp/err")"
done
exit 0
