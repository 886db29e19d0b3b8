#!/bin/sh
# make bench, suites judged by what a program does with them (issue 33,
# item 1): each close-off's cover suite (greedy, the default, packs up to
# 60 tree nodes an input), and greedy with other packing bounds (--pack-size
# N, the candidates: PACKS; 0: unbounded, the default before), against random
# inputs of the same total bytes, run on real programs: functions and lines
# reached, failing runs, per run and per byte.
#  - calc: build/subjects/calc (make subjects), grammars/arith.ebnf;
#  - tinyexpr: built here with --coverage from the fetched repository
#    (TINYEXPR_GIT, default /work/.mirror/codeplea+tinyexpr/repo, a bare git
#    directory) and a driver written here (exit 3 on NaN, 4 on an infinite
#    value, 2 on a syntax error), on the same grammar;
#  - inih: ini.c from INIH_GIT (default /work/.mirror/benhoyt+inih/repo)
#    and a driver printing each name=value (exit 2 on a parse error),
#    grammars/ini.ebnf;
#  - cJSON: cJSON.c from CJSON_GIT (default
#    /work/.mirror/DaveGamble+cJSON/repo) and a driver that parses stdin
#    with cJSON_Parse and prints it (exit 2 when it does not parse),
#    grammars/json.ebnf;
#  - json5 (npm, when node and npm are here and `npm install json5` works):
#    JSON5.parse on stdin under V8 coverage (functions only), json.ebnf.
# Each is skipped when absent.  Random inputs: kpath gen --strategy random
# (depth <= DEPTH, seeds 1..3), taken in order until their bytes reach the
# suite's; the row gives min/median/max over the seeds.  After each k a
# line says whether the default reaches at least the functions and lines of
# the random maximum and of the shortest suite (issue 33's aim), or which
# it falls short of.  Prints figures, asserts nothing.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
build=$(dirname "$KPATH")
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=grammars/arith.ebnf
KS=${KS:-"2 3"}
PACKS=${PACKS:-"0 30 100"}
# The close-offs measured (greedy is the default).
CLOSEOFFS=${CLOSEOFFS:-"greedy shortest random"}
# Which programs (names as below); all by default.
PROGRAMS=${PROGRAMS:-"calc tinyexpr inih cjson json5"}
# BONSAI=0 leaves out the bonsai section at the end.
BONSAI=${BONSAI:-1}

# measure DIR: "inputs bytes fns lines failing" for the current program
# ($prog, $grammar, $start, $collect: the collector options of kpath run).
measure() {
    rm -f "$tmp/r.jsonl"
    # shellcheck disable=SC2086
    "$KPATH" run -q -j 2 $collect --results "$tmp/r.jsonl" --start "$start" "$grammar" "$1" \
        -- $prog >/dev/null 2>&1
    [ -f "$tmp/r.jsonl" ] || : >"$tmp/r.jsonl" # a failed run: nothing reached
    n=$(ls "$1" | grep -c '\.txt$')
    bytes=$(cat "$1"/*.txt | wc -c)
    fns=$(grep -o '"fn:[^"]*"' "$tmp/r.jsonl" | sort -u | wc -l)
    lines=$(grep -o '"line:[^"]*"' "$tmp/r.jsonl" | sort -u | wc -l)
    failing=$(grep -c '"outcome":"[^e]\|"outcome":"exit:[1-9]' "$tmp/r.jsonl")
    echo "$n $bytes $fns $lines $failing"
}

row() { # LABEL "inputs bytes fns lines failing"
    set -- "$1" $2
    awk -v l="$1" -v n="$2" -v b="$3" -v f="$4" -v li="$5" -v fa="$6" 'BEGIN {
        printf "    %-24s %6d %7d %5d %6d %8d %8.2f %9.2f %9.2f\n", l, n, b, f, li, fa,
               (n ? li / n : 0), (b ? 100 * f / b : 0), (b ? 100 * li / b : 0) }'
}

# random_like BYTES SEED: random inputs into $tmp/rand until BYTES are reached
random_like() {
    rm -rf "$tmp/rand"
    mkdir "$tmp/rand"
    total=0
    for f in "$tmp/pool$2"/*.txt; do
        [ "$total" -ge "$1" ] && break
        cp "$f" "$tmp/rand/"
        total=$((total + $(wc -c <"$f")))
    done
}

# random_rows BYTES: min/median/max over seeds 1..3 of each column
random_rows() {
    for seed in 1 2 3; do
        random_like "$1" "$seed"
        measure "$tmp/rand"
    done >"$tmp/rr"
    # shellcheck disable=SC2016
    for col in 1 2 3 4 5; do sort -n -k"$col" "$tmp/rr" | cut -d' ' -f"$col" | tr '\n' ' '; echo; done |
        awk '{ lo = lo " " $1; md = md " " $2; hi = hi " " $3 }
             END { print lo; print md; print hi }' >"$tmp/rs"
    row "  random same bytes, min" "$(sed -n 1p "$tmp/rs")"
    row "  random, median" "$(sed -n 2p "$tmp/rs")"
    row "  random, max" "$(sed -n 3p "$tmp/rs")"
}

# program NAME DEPTH: every suite of $grammar for each k, against random
program() {
    echo "  $1 ($grammar, start $start, $collect)"
    printf '    %-24s %6s %7s %5s %6s %8s %8s %9s %9s\n' suite inputs bytes fns lines failing \
        lines/run "fns/100B" "lines/100B"
    for seed in 1 2 3; do
        rm -rf "$tmp/pool$seed"
        "$KPATH" gen --strategy random -n 3000 --max-depth "$2" --seed "$seed" --start "$start" \
            -o "$tmp/pool$seed" "$grammar" >/dev/null 2>&1
    done
    for k in $KS; do
        for c in $CLOSEOFFS $PACKS; do
            rm -rf "$tmp/suite"
            case $c in
            [0-9]*) opt="--pack-size $c" label="k=$k pack $c" ;;
            *) opt="--close-off $c" label="k=$k $c" ;;
            esac
            [ "$c" = greedy ] && label="$label (default)"
            # shellcheck disable=SC2086
            "$KPATH" cover -k "$k" $opt --start "$start" -o "$tmp/suite" "$grammar" >/dev/null 2>&1 ||
                { echo "    $label: cover failed"; continue; }
            m=$(measure "$tmp/suite")
            row "$label" "$m"
            random_rows "$(echo "$m" | cut -d' ' -f2)"
            case $c in
            greedy) dm=$m rmax=$(sed -n 3p "$tmp/rs") ;;
            shortest) sm=$m ;;
            esac
        done
        verdict "$k"
    done
}

# verdict K: does the default (greedy: $dm) reach at least the functions
# and lines of random's best seed at its bytes ($rmax) and of the shortest
# suite ($sm)?  Issue 33's aim; prints which falls short.
verdict() {
    [ -n "${dm:-}" ] || return 0
    vk=$1 short=""
    # shellcheck disable=SC2086
    set -- $dm
    dfn=$3 dli=$4
    # shellcheck disable=SC2086
    set -- $rmax
    [ "$dfn" -ge "$3" ] || short="$short functions < random max ($dfn < $3);"
    [ "$dli" -ge "$4" ] || short="$short lines < random max ($dli < $4);"
    if [ -n "${sm:-}" ]; then
        # shellcheck disable=SC2086
        set -- $sm
        [ "$dfn" -ge "$3" ] || short="$short functions < shortest ($dfn < $3);"
        [ "$dli" -ge "$4" ] || short="$short lines < shortest ($dli < $4);"
    fi
    [ -n "$short" ] || short=" at least the random maximum and the shortest suite, functions and lines"
    echo "    k=$vk default:$short"
    dm="" sm=""
}

want() { case " $PROGRAMS " in *" $1 "*) return 0 ;; esac; return 1; }

# build_c NAME GITDIR DRIVER_FILE SOURCE...: $tmp/NAME/prog, built with
# --coverage from the named files of GITDIR's HEAD and the driver; false
# (with a line saying why) when it cannot.
build_c() {
    name=$1 git=$2 driver=$3
    shift 3
    if [ ! -d "$git" ]; then
        echo "  $name: skipped (no repository at $git)"
        return 1
    fi
    command -v cc >/dev/null || { echo "  $name: skipped (no cc)"; return 1; }
    mkdir -p "$tmp/$name"
    for f in "$@"; do
        git --git-dir="$git" show "HEAD:$f" >"$tmp/$name/$f" 2>/dev/null ||
            { echo "  $name: skipped (no $f in $git)"; return 1; }
    done
    cp "$driver" "$tmp/$name/driver.c"
    srcs=$(for f in "$@"; do case $f in *.c) echo "$f" ;; esac; done)
    # shellcheck disable=SC2086
    (cd "$tmp/$name" && cc -O0 --coverage -o prog driver.c $srcs -lm 2>/dev/null) ||
        { echo "  $name: skipped (cannot build it from $git)"; return 1; }
}

echo "== behaviour: cover suites vs random inputs of the same bytes (kpath run --gcov --lines)"
echo "   (fns/100B, lines/100B: per 100 bytes of input)"
if want calc; then
    if [ -x "$build/subjects/calc" ]; then
        prog=$build/subjects/calc grammar=$g start=Expr collect="--gcov $build/subjects --lines"
        program calc 8
    else
        echo "  calc: skipped (no $build/subjects/calc: make subjects)"
    fi
fi
if want tinyexpr; then
    cat >"$tmp/te.c" <<'DRIVER'
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
    if build_c tinyexpr "${TINYEXPR_GIT:-/work/.mirror/codeplea+tinyexpr/repo}" "$tmp/te.c" \
        tinyexpr.c tinyexpr.h; then
        prog=$tmp/tinyexpr/prog grammar=$g start=Expr collect="--gcov $tmp/tinyexpr --lines"
        program tinyexpr 8
    fi
fi
if want inih; then
    cat >"$tmp/ini.c" <<'DRIVER'
#include <stdio.h>
#include "ini.h"
static int handler(void *user, const char *section, const char *name, const char *value)
{
    (void)user;
    printf("%s.%s=%s\n", section, name ? name : "", value ? value : "");
    return 1;
}
int main(void)
{
    return ini_parse_file(stdin, handler, NULL) ? 2 : 0;
}
DRIVER
    if build_c inih "${INIH_GIT:-/work/.mirror/benhoyt+inih/repo}" "$tmp/ini.c" ini.c ini.h; then
        prog=$tmp/inih/prog grammar=grammars/ini.ebnf start=ini
        collect="--gcov $tmp/inih --lines"
        program inih 6
    fi
fi
if want cjson; then
    cat >"$tmp/cjson.c" <<'DRIVER'
#include <stdio.h>
#include <stdlib.h>
#include "cJSON.h"
int main(void)
{
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, stdin);
    buf[n] = 0;
    cJSON *v = cJSON_Parse(buf);
    if (!v) return 2;
    char *text = cJSON_Print(v);
    if (text) puts(text);
    free(text);
    cJSON_Delete(v);
    return 0;
}
DRIVER
    if build_c cjson "${CJSON_GIT:-/work/.mirror/DaveGamble+cJSON/repo}" "$tmp/cjson.c" \
        cJSON.c cJSON.h; then
        prog=$tmp/cjson/prog grammar=grammars/json.ebnf start=json
        collect="--gcov $tmp/cjson --lines"
        program cJSON 8
    fi
fi
if want json5; then
    if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
        echo "  json5: skipped (no node or npm)"
    elif ! (mkdir -p "$tmp/json5" && cd "$tmp/json5" &&
        npm install --silent --no-audit --no-fund json5 >/dev/null 2>&1); then
        echo "  json5: skipped (npm install json5 failed)"
    else
        cat >"$tmp/json5/driver.js" <<'DRIVER'
const JSON5 = require('json5');
let text = '';
process.stdin.on('data', (d) => { text += d; });
process.stdin.on('end', () => {
    try {
        console.log(JSON.stringify(JSON5.parse(text)));
    } catch (e) {
        process.exitCode = 2;
    }
});
DRIVER
        prog="node $tmp/json5/driver.js" grammar=grammars/json.ebnf start=json
        collect=--node-coverage
        program json5 8
    fi
fi

# Bonsai against fuzz-then-shrink (issue 33, item 3), per program (calc,
# tinyexpr, inih, cJSON as built above; features: functions and lines, gcov
# --lines).  bonsai --run --features-only (k=2, depth <= DEPTH, repetitions
# <= 3): inputs kept for the features they add, the shortest per feature,
# the redundant dropped longest first.  Baseline with the same run budget:
# as many random inputs (the same bounds, seed 7), run, those adding a
# feature kept in order, each then shrunk by kpath shrink keeping every
# feature it added (--keep per feature); its runs are counted on top.  On
# calc also bonsai --run keeping k-paths too (the default).  Inputs, bytes,
# features reached, runs.
# bonsai_vs_fuzz NAME PROG GRAMMAR START DEPTH COLLECT...
bonsai_vs_fuzz() {
    name=$1 bprog=$2 bg=$3 bst=$4 depth=$5
    shift 5
    d=$tmp/bz-$name
    rm -rf "$d"
    mkdir -p "$d/kept" "$d/shrunk"
    bzrow() { # LABEL DIR FEATURES RUNS
        printf '    %-34s %6s %7s %8s %6s\n' "$1" "$(ls "$2" | grep -c '\.txt$')" \
            "$(cat "$2"/*.txt 2>/dev/null | wc -c)" "$3" "$4"
    }
    echo "  $name ($bg, k=2, depth <= $depth, repetitions <= 3, $*)"
    printf '    %-34s %6s %7s %8s %6s\n' "" inputs bytes features runs
    modes="--features-only"
    [ "$name" = calc ] && modes="--features-only both"
    for mode in $modes; do
        opt=$mode label="bonsai --run --features-only"
        [ "$mode" = both ] && opt="" label="bonsai --run (k-paths too)"
        rm -rf "$d/bruns" "$d/bonsai"
        # shellcheck disable=SC2086
        if ! "$KPATH" bonsai -k 2 --max-depth "$depth" --max-repetitions 3 -j 2 "$@" \
            --start "$bst" --runs "$d/bruns" -o "$d/bonsai" "$bg" --run $opt -- "$bprog" \
            >/dev/null 2>"$d/berr"; then
            echo "    $label: failed: $(tail -n 1 "$d/berr")"
            return 0
        fi
        r=$(($(wc -l <"$d/bruns/results.jsonl") - 1))
        [ "$mode" = both ] || bruns=$r
        bzrow "$label" "$d/bonsai" \
            "$(sed -n 's/^behaviour features reached: \([0-9]*\).*/\1/p' "$d/berr")" "$r"
    done
    "$KPATH" gen --strategy random -n "$bruns" --max-depth "$depth" --max-repetitions 3 \
        --seed 7 --start "$bst" -o "$d/fuzz" "$bg" >/dev/null 2>&1
    "$KPATH" run -q -j 2 "$@" --start "$bst" --results "$d/fuzz.jsonl" "$bg" "$d/fuzz" \
        -- "$bprog" >/dev/null 2>&1
    # One line per input, in name order: PATH FEATURE...
    sed -n 's/.*"input":"\([^"]*\)".*"features":\[\(.*\)\]}$/\1 \2/p' "$d/fuzz.jsonl" |
        tr -d '"' | tr ',' ' ' | sort >"$d/feats"
    # The inputs that add a feature, in order: PATH NEW-FEATURE...
    awk '{ new = ""; for (i = 2; i <= NF; i++) if (!($i in seen)) { seen[$i] = 1; new = new " " $i }
           if (new != "") print $1 new }' "$d/feats" >"$d/new"
    shrink_runs=0
    while read -r path new; do
        base=$(basename "$path")
        cp "$path" "$d/kept/$base"
        keep=""
        for f in $new; do keep="$keep --keep $f"; done
        # shellcheck disable=SC2086
        "$KPATH" shrink $keep "$@" --start "$bst" -o "$d/shrunk/$base" "$bg" "$path" \
            -- "$bprog" 2>"$d/serr" >/dev/null || cp "$path" "$d/shrunk/$base"
        r=$(sed -n 's/.* \([0-9]*\) runs (INPUT.s included).*/\1/p' "$d/serr")
        shrink_runs=$((shrink_runs + ${r:-0}))
    done <"$d/new"
    bzrow "fuzz $bruns, keep what adds a feature" "$d/kept" \
        "$(cut -d' ' -f2- "$d/new" | tr ' ' '\n' | grep -c .)" "$bruns"
    "$KPATH" run -q "$@" --start "$bst" --results "$d/shrunk.jsonl" "$bg" "$d/shrunk" \
        -- "$bprog" >/dev/null 2>&1
    sfeat=$(sed -n 's/.*"features":\[\(.*\)\]}$/\1/p' "$d/shrunk.jsonl" | tr ',' '\n' |
        sort -u | grep -c .)
    bzrow "  then shrink each" "$d/shrunk" "$sfeat" "+$shrink_runs"
}

if [ "$BONSAI" != 0 ]; then
    DEPTH=${DEPTH:-10}
    echo "== bonsai --run vs fuzz, keep what adds a feature, shrink each (same runs)"
    if want calc && [ -x "$build/subjects/calc" ]; then
        bonsai_vs_fuzz calc "$build/subjects/calc" $g Expr "$DEPTH" --gcov "$build/subjects" --lines
    fi
    if want tinyexpr && [ -x "$tmp/tinyexpr/prog" ]; then
        bonsai_vs_fuzz tinyexpr "$tmp/tinyexpr/prog" $g Expr "$DEPTH" --gcov "$tmp/tinyexpr" --lines
    fi
    if want inih && [ -x "$tmp/inih/prog" ]; then
        bonsai_vs_fuzz inih "$tmp/inih/prog" grammars/ini.ebnf ini 6 --gcov "$tmp/inih" --lines
    fi
    if want cjson && [ -x "$tmp/cjson/prog" ]; then
        bonsai_vs_fuzz cJSON "$tmp/cjson/prog" grammars/json.ebnf json 8 --gcov "$tmp/cjson" --lines
    fi
fi
