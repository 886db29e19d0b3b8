#!/bin/sh
# make bench, suites judged by what a program does with them (issue 33,
# item 1): each close-off's cover suite against random inputs of the same
# total bytes, run with gcov on real programs: functions and lines reached,
# failing runs and distinct failing outcomes, per run and per byte.
#  - calc: build/subjects/calc (make subjects), grammars/arith.ebnf;
#  - tinyexpr: built here with --coverage from the fetched repository
#    (TINYEXPR_GIT, default /work/.mirror/codeplea+tinyexpr/repo, a bare git
#    directory) and a driver written here (exit 3 on NaN, 4 on an infinite
#    value, 2 on a syntax error), on the same grammar; skipped when absent.
# Random inputs: kpath gen --strategy random (depth <= 8, seeds 1..3), taken
# in order until their bytes reach the suite's.  Prints figures, asserts
# nothing.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
build=$(dirname "$KPATH")
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=grammars/arith.ebnf
KS=${KS:-"2 3"}

# measure DIR PROG GCOV: "inputs bytes fns lines failing outcomes"
measure() {
    rm -f "$tmp/r.jsonl"
    "$KPATH" run -q -j 2 --gcov "$3" --lines --results "$tmp/r.jsonl" --start Expr $g "$1" \
        -- "$2" >/dev/null 2>&1
    n=$(ls "$1" | grep -c '\.txt$')
    bytes=$(cat "$1"/*.txt | wc -c)
    fns=$(grep -o '"fn:[^"]*"' "$tmp/r.jsonl" | sort -u | wc -l)
    lines=$(grep -o '"line:[^"]*"' "$tmp/r.jsonl" | sort -u | wc -l)
    failing=$(grep -c '"outcome":"[^e]\|"outcome":"exit:[1-9]' "$tmp/r.jsonl")
    outcomes=$(grep -o '"outcome":"[^"]*"' "$tmp/r.jsonl" | grep -v 'exit:0"' | sort -u | wc -l)
    echo "$n $bytes $fns $lines $failing $outcomes"
}

row() { # LABEL "inputs bytes fns lines failing outcomes"
    set -- "$1" $2
    awk -v l="$1" -v n="$2" -v b="$3" -v f="$4" -v li="$5" -v fa="$6" -v o="$7" 'BEGIN {
        printf "    %-22s %6d %7d %5d %6d %8d %9d %8.2f %9.2f\n", l, n, b, f, li, fa, o,
               (n ? li / n : 0), (b ? 100 * li / b : 0) }'
}

# random_like BYTES SEED: random inputs into $tmp/rand until BYTES are reached
random_like() {
    rm -rf "$tmp/pool" "$tmp/rand"
    "$KPATH" gen --strategy random -n 3000 --max-depth 8 --seed "$2" --start Expr -o "$tmp/pool" \
        $g >/dev/null 2>&1
    mkdir "$tmp/rand"
    total=0
    for f in "$tmp/pool"/*.txt; do
        [ "$total" -ge "$1" ] && break
        cp "$f" "$tmp/rand/"
        total=$((total + $(wc -c <"$f")))
    done
}

subject() { # NAME PROG GCOV_DIR
    echo "  $1 (grammars/arith.ebnf, gcov lines; lines per run, per 100 bytes)"
    printf '    %-22s %6s %7s %5s %6s %8s %9s %8s %9s\n' suite inputs bytes fns lines failing outcomes \
        lines/run "lines/100B"
    for k in $KS; do
        for c in greedy shortest random; do
            rm -rf "$tmp/suite"
            "$KPATH" cover -k "$k" --close-off "$c" --start Expr -o "$tmp/suite" $g >/dev/null 2>&1 ||
                { echo "    k=$k $c: cover failed"; continue; }
            m=$(measure "$tmp/suite" "$2" "$3")
            row "k=$k $c" "$m"
            bytes=$(echo "$m" | cut -d' ' -f2)
            for seed in 1 2 3; do
                random_like "$bytes" "$seed"
                row "  random, seed $seed" "$(measure "$tmp/rand" "$2" "$3")"
            done
        done
    done
}

echo "== behaviour: cover suites vs random inputs of the same bytes (kpath run --gcov --lines)"
if [ -x "$build/subjects/calc" ]; then
    subject calc "$build/subjects/calc" "$build/subjects"
else
    echo "  calc: skipped (no $build/subjects/calc: make subjects)"
fi
git=${TINYEXPR_GIT:-/work/.mirror/codeplea+tinyexpr/repo}
if [ ! -d "$git" ]; then
    echo "  tinyexpr: skipped (no repository at $git: TINYEXPR_GIT)"
elif ! command -v cc >/dev/null; then
    echo "  tinyexpr: skipped (no cc)"
else
    mkdir "$tmp/te"
    git --git-dir="$git" show HEAD:tinyexpr.c >"$tmp/te/tinyexpr.c" 2>/dev/null &&
        git --git-dir="$git" show HEAD:tinyexpr.h >"$tmp/te/tinyexpr.h" 2>/dev/null
    cat >"$tmp/te/driver.c" <<'DRIVER'
#include <math.h>
#include <stdio.h>
#include "tinyexpr.h"
int main(void)
{
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, stdin);
    buf[n] = 0;
    int err = 0;
    double v = te_interp(buf, &err);
    if (err) return 2;
    if (isnan(v)) return 3;
    if (isinf(v)) return 4;
    printf("%g\n", v);
    return 0;
}
DRIVER
    if (cd "$tmp/te" && cc -O0 --coverage -o te driver.c tinyexpr.c -lm 2>/dev/null); then
        subject tinyexpr "$tmp/te/te" "$tmp/te"
    else
        echo "  tinyexpr: skipped (cannot build it from $git)"
    fi
fi

# Bonsai against fuzz-then-shrink (issue 33, item 3) on calc: bonsai --run
# (k=2, depth <= 10, repetitions <= 3) against as many random inputs (the
# same bounds), run with gcov, those adding a feature kept in order, each
# then shrunk by kpath shrink keeping every feature it added (--keep per
# feature).  Bytes, features reached, and the runs each took.
calc=$build/subjects/calc
if [ -x "$calc" ]; then
    echo "== calc: bonsai --run vs fuzz, keep what adds a feature, shrink each (k=2, depth <= 10)"
    "$KPATH" bonsai -k 2 --max-depth 10 --max-repetitions 3 -j 2 --gcov "$build/subjects" \
        --runs "$tmp/bruns" -o "$tmp/bonsai" $g --run -- "$calc" >/dev/null 2>"$tmp/berr"
    bruns=$(($(wc -l <"$tmp/bruns/results.jsonl") - 1))
    bfeat=$(sed -n 's/^behaviour features reached: \([0-9]*\).*/\1/p' "$tmp/berr")
    echo "  bonsai --run: $(ls "$tmp/bonsai" | grep -c '\.txt$') inputs, $(cat "$tmp/bonsai"/*.txt | wc -c) bytes, $bfeat features, $bruns runs"
    "$KPATH" gen --strategy random -n "$bruns" --max-depth 10 --max-repetitions 3 --seed 7 \
        -o "$tmp/fuzz" $g 2>/dev/null
    "$KPATH" run -q -j 2 --gcov "$build/subjects" --results "$tmp/fuzz.jsonl" $g "$tmp/fuzz" \
        -- "$calc" >/dev/null 2>&1
    # One line per input, in name order: PATH FEATURE...
    sed -n 's/.*"input":"\([^"]*\)".*"features":\[\(.*\)\]}$/\1 \2/p' "$tmp/fuzz.jsonl" |
        tr -d '"' | tr ',' ' ' | sort >"$tmp/feats"
    : >"$tmp/seen"
    mkdir "$tmp/kept" "$tmp/shrunk"
    shrink_runs=0
    while read -r path feats; do
        new=""
        for f in $feats; do
            grep -qxF "$f" "$tmp/seen" || { new="$new $f"; echo "$f" >>"$tmp/seen"; }
        done
        [ -n "$new" ] || continue
        name=$(basename "$path")
        cp "$path" "$tmp/kept/$name"
        keep=""
        for f in $new; do keep="$keep --keep $f"; done
        # shellcheck disable=SC2086
        "$KPATH" shrink $keep --gcov "$build/subjects" -o "$tmp/shrunk/$name" $g "$path" \
            -- "$calc" 2>"$tmp/serr" >/dev/null || cp "$path" "$tmp/shrunk/$name"
        r=$(sed -n 's/.* \([0-9]*\) runs (INPUT.s included).*/\1/p' "$tmp/serr")
        shrink_runs=$((shrink_runs + ${r:-0}))
    done <"$tmp/feats"
    echo "  fuzz $bruns, kept adding a feature: $(ls "$tmp/kept" | wc -l) inputs, $(cat "$tmp/kept"/* | wc -c) bytes, $(wc -l <"$tmp/seen") features"
    "$KPATH" run -q --gcov "$build/subjects" --results "$tmp/shrunk.jsonl" $g "$tmp/shrunk" \
        -- "$calc" >/dev/null 2>&1
    sfeat=$(sed -n 's/.*"features":\[\(.*\)\]}$/\1/p' "$tmp/shrunk.jsonl" | tr ',' '\n' | sort -u | grep -c .)
    echo "  then each shrunk: $(ls "$tmp/shrunk" | wc -l) inputs, $(cat "$tmp/shrunk"/* | wc -c) bytes, $sfeat features, $shrink_runs more runs"
fi
