#!/bin/sh
# Compare two kpath binaries' coverage results (a change to the parser must
# not change them): `kpath coverage -k K` (counts, trees, expansions) and
# `kpath coverage -k K --uncovered` (the uncovered K-paths themselves), k = 1
# to 3, stdout, stderr and exit status, for every sample under tests/samples
# with every bundled grammar (most are no-parse diagnostics, which must agree
# too), every sample directory at once with its own grammar, and each file
# given after the binaries with the grammar named before it (GRAMMAR@RULE:
# with --start RULE, as for most ANTLR grammars; FILE may be a directory):
#   coverage_compare.sh OLD NEW [GRAMMAR[@RULE]=FILE ...]
# Run from the repository root.  Prints one line per difference and a
# summary; exits 1 if anything differs.  Each run gets a 600 s time limit.
set -u
[ $# -ge 2 ] || { echo "usage: $0 OLD_KPATH NEW_KPATH [GRAMMAR=FILE ...]" >&2; exit 2; }
old=$1 new=$2
shift 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
runs=0 diffs=0

one() { # one GRAMMAR FILE|DIR K [--uncovered]
    for side in old new; do
        bin=$old
        [ $side = new ] && bin=$new
        timeout 600 "$bin" coverage --max-input-size 64M -k "$@" >"$tmp/$side.out" 2>"$tmp/$side.err"
        echo "exit $?" >>"$tmp/$side.err"
    done
    runs=$((runs + 1))
    if ! cmp -s "$tmp/old.out" "$tmp/new.out" || ! cmp -s "$tmp/old.err" "$tmp/new.err"; then
        diffs=$((diffs + 1))
        echo "DIFFERS: coverage -k $*"
    fi
}

# coverage takes -k K GRAMMAR FILE; one() passes its arguments in that order.
grammars="$(ls grammars/*.ebnf) tests/samples/ambiguous/catalan.ebnf tests/samples/ambiguous/cyclic.ebnf"
# EACH_GRAMMAR=0 leaves out every sample with every grammar (about 4,000
# runs; the directories and the files given are still compared).
[ "${EACH_GRAMMAR:-1}" = 0 ] && grammars=
for f in $(find tests/samples -type f ! -name '*.ebnf' | sort); do
    for g in $grammars; do
        for k in 1 2 3; do
            one "$k" "$g" "$f"
            one "$k" --uncovered "$g" "$f"
        done
    done
done
for d in arith csv expr json url; do
    for k in 1 2 3; do
        one "$k" grammars/$d.ebnf tests/samples/$d/valid
        one "$k" --uncovered grammars/$d.ebnf tests/samples/$d/valid
    done
done
for pair in "$@"; do
    g=${pair%%=*} f=${pair#*=}
    start=
    case $g in *@*) start=${g#*@} g=${g%@*} ;; esac
    for k in 1 2 3; do
        if [ -n "$start" ]; then
            one "$k" --start "$start" "$g" "$f"
            one "$k" --start "$start" --uncovered "$g" "$f"
        else
            one "$k" "$g" "$f"
            one "$k" --uncovered "$g" "$f"
        fi
    done
done
echo "coverage_compare: $runs runs, $diffs differ"
[ "$diffs" -eq 0 ]
