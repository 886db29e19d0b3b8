#!/bin/sh
# kpath reduce -j N: inputs parsed by N threads give the same result as
# -j 1, byte for byte (stdout, stderr, exit status, the files and manifest
# of -o), with a results file, invalid inputs (refused, and left out with
# --skip-invalid) and standard input.  (-j 0: coverage-jobs.sh.)
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
d=$tmp/corpus
mkdir -p "$d"
"$KPATH" gen --strategy random -n 40 --seed 5 -o "$d/gen" grammars/json.ebnf >/dev/null 2>&1 ||
    fail "gen: status $?"
"$KPATH" run -q -j 2 --results "$tmp/r.jsonl" grammars/json.ebnf "$d/gen" -- /bin/sh -c \
    'read -r l; case "$l" in *true*) exit 3;; esac; exit 0' >/dev/null 2>&1 || fail "run: status $?"
grep -q '"outcome":"exit:3"' "$tmp/r.jsonl" || fail "no input reached exit:3"

same() { # name, then the arguments after `reduce` (stdin: $tmp/stdin)
    name=$1; shift
    rm -rf "$tmp/o1" "$tmp/oj"
    "$KPATH" reduce -o "$tmp/o1" "$@" <"$tmp/stdin" >"$tmp/1.out" 2>"$tmp/1.err"; s1=$?
    for j in 2 3 8; do
        rm -rf "$tmp/oj"
        "$KPATH" reduce -j $j -o "$tmp/oj" "$@" <"$tmp/stdin" >"$tmp/j.out" 2>"$tmp/j.err"; sj=$?
        [ $s1 = $sj ] || fail "$name: -j $j exit status $sj, -j 1: $s1"
        sed "s|$tmp/oj|O|g" "$tmp/j.out" >"$tmp/j.out.n"; sed "s|$tmp/o1|O|g" "$tmp/1.out" >"$tmp/1.out.n"
        sed "s|$tmp/oj|O|g" "$tmp/j.err" >"$tmp/j.err.n"; sed "s|$tmp/o1|O|g" "$tmp/1.err" >"$tmp/1.err.n"
        cmp -s "$tmp/1.out.n" "$tmp/j.out.n" || fail "$name: -j $j stdout differs: $(diff "$tmp/1.out.n" "$tmp/j.out.n" | head)"
        cmp -s "$tmp/1.err.n" "$tmp/j.err.n" || fail "$name: -j $j stderr differs: $(diff "$tmp/1.err.n" "$tmp/j.err.n" | head)"
        if [ -d "$tmp/o1" ]; then
            diff -r "$tmp/o1" "$tmp/oj" >/dev/null || fail "$name: -j $j output directory differs"
        else
            [ ! -e "$tmp/oj" ] || fail "$name: -j $j wrote what -j 1 did not"
        fi
    done
}

printf '[1, {"a": null}]' >"$tmp/stdin"
same features -k 2 --results "$tmp/r.jsonl" grammars/json.ebnf "$d/gen"
grep -q 'features' "$tmp/1.out" || fail "features: $(cat "$tmp/1.out")"
[ -f "$tmp/o1/manifest.json" ] || fail "features: no manifest"
same stdin -k 3 grammars/json.ebnf "$d/gen" -
cp -r tests/samples/json "$d/given"
same refused -k 2 grammars/json.ebnf "$d/given" "$d/gen"
[ $s1 = 2 ] || fail "refused: exit status $s1"
grep -q 'could not be measured' "$tmp/1.err" || fail "refused: $(cat "$tmp/1.err")"
same skipped --skip-invalid -k 2 grammars/json.ebnf "$d/given" "$d/gen"
[ $s1 = 0 ] || fail "skipped: exit status $s1: $(cat "$tmp/1.err")"

exit 0
