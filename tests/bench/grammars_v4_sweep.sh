#!/bin/sh
# grammars_v4_sweep.sh: every grammars-v4 grammar with a parser grammar
# through kpath, run by hand (not in `make test` nor `make bench`: it takes
# from minutes to hours, by N and the CPU limit).
#
#   KPATH=build/kpath sh tests/bench/grammars_v4_sweep.sh
#
# A grammar is a directory of grammars-v4 with a desc.xml.  Its parser
# grammar: NAME+Parser.g4 or NAME.g4, NAME from desc.xml's <grammar-name>
# or pom.xml's <grammarName>, else its only parser or combined grammar
# (else the first by name).  For each grammar: does `kpath info -k 1` load
# it; for up to N of its examples (the files of desc.xml's first <inputs>,
# default examples/; never the test runner's .errors, .tree and .trq
# files; the first N by name) does `kpath parse` parse it within a CPU
# limit (ulimit -t).  An example with a non-empty X.errors beside it is one
# ANTLR's own test expects to fail: counted apart ("antlr rejects").
# Prints the totals and a table of causes (the first error, with names,
# numbers and positions blotted out, so that the same cause in two
# grammars counts once per example), the largest first.
#
# Settings (environment):
#   KPATH                 the binary (required)
#   KPATH_GRAMMARS_V4     a grammars-v4 checkout, or
#   KPATH_GRAMMARS_V4_GIT its git directory (default
#                         /work/.mirror/antlr+grammars-v4/repo), checked out
#                         into the work directory (blobs missing from a
#                         partial mirror are left out)
#   N=10                  examples per grammar
#   CPU=20                seconds of CPU per kpath run
#   JOBS=2                grammars at a time (xargs -P), at nice 10
#   GRAMMARS="lua css3"   only these directories (default: all)
#   OUT=DIR               keep the work there (results.tsv: one line per
#                         grammar and per example; default: a temp dir)
#   PARSE_OPTS="..."      more options for `kpath info` and `kpath parse`
#   RECIPES=FILE          per grammar, more options: lines "DIR OPTIONS..."
#                         (default: grammars_v4_recipes.txt beside this
#                         script; RECIPES=/dev/null for none), such as the
#                         --token definitions of tokens that actions emit
#   REPORT=1              only print the report of OUT's results.tsv
set -u
: "${KPATH:?KPATH must name the kpath binary}"
N=${N:-10} CPU=${CPU:-20} JOBS=${JOBS:-2}
PARSE_OPTS=${PARSE_OPTS:-}
RECIPES=${RECIPES:-$(cd "$(dirname "$0")" && pwd)/grammars_v4_recipes.txt}
case $KPATH in /*) ;; *) KPATH=$(pwd)/$KPATH ;; esac
export KPATH N CPU PARSE_OPTS RECIPES
tab=$(printf '\t')

# The first error line of FILE, as a cause: no path, positions, quoted
# names, numbers.
cause_of() {
    grep -m1 -E 'error|fatal|unknown option' "$1" |
        sed -E -e 's/; expected .*//' -e 's/^[^ ]*:[0-9]+:[0-9]+: //' -e 's/^[^ ]*: error/error/' \
            -e 's/\([^ ()]*:[0-9]+:[0-9]+\)/(FILE)/g' -e "s/'[^']*'/'_'/g" -e 's/"[^"]*"/"_"/g' -e 's/[0-9]+/N/g' |
        cut -c1-110
}

# One grammar directory (relative to the root): its lines of results.tsv
# on stdout.  Fields: kind, grammar, file, status, cause.
one_grammar() {
    d=$1
    w=$OUT/work/$(echo "$d" | tr / _)
    mkdir -p "$w"
    name=$(sed -n 's/.*<grammar-name>\([^<]*\)<.*/\1/p' "$d/desc.xml" 2>/dev/null | head -1)
    [ -n "$name" ] || name=$(sed -n 's/.*<grammarName>\([^<]*\)<.*/\1/p' "$d/pom.xml" 2>/dev/null | head -1)
    g=
    for cand in "$d/${name}Parser.g4" "$d/$name.g4"; do
        [ -n "$name" ] && [ -f "$cand" ] && { g=$cand; break; }
    done
    if [ -z "$g" ]; then
        for f in "$d"/*.g4; do
            [ -f "$f" ] || continue
            decl=$(grep -m1 -E '^[[:space:]]*(lexer[[:space:]]+|parser[[:space:]]+)?grammar[[:space:]]' "$f")
            case $decl in *lexer*grammar*) continue ;; esac
            g=$f
            break
        done
    fi
    if [ -z "$g" ]; then
        printf 'grammar\t%s\t-\tnone\tno parser grammar\n' "$d"
        return
    fi
    # The grammar's recipe: its options, as words.
    opts=$PARSE_OPTS
    if [ -f "$RECIPES" ]; then
        opts="$opts $(awk -v d="$d" '$1 == d { $1 = ""; print }' "$RECIPES")"
    fi
    # shellcheck disable=SC2086
    if (ulimit -t "$CPU"; eval "exec nice -n 10 \"\$KPATH\" info -k 1 $opts \"\$g\"") >/dev/null 2>"$w/info.err"; then
        printf 'grammar\t%s\t%s\tloads\t-\n' "$d" "$g"
    else
        rc=$?
        if [ $rc -gt 128 ]; then c="cpu limit (info)"; else c=$(cause_of "$w/info.err"); fi
        printf 'grammar\t%s\t%s\tfails\t%s\n' "$d" "$g" "${c:-exit $rc}"
        return
    fi
    inputs=$(sed -n 's/.*<inputs>\([^<]*\)<.*/\1/p' "$d/desc.xml" 2>/dev/null | head -1)
    [ -n "$inputs" ] || inputs=examples
    if [ -d "$d/$inputs" ]; then
        find "$d/$inputs" -type f
    else
        # A glob such as examples/**/*.lua: find's * crosses slashes.
        find "$d" -type f -path "$d/$(echo "$inputs" | sed 's|\*\*/|*|g')"
    fi | grep -v -E '\.(errors|tree|trq)$' | LC_ALL=C sort | head -n "$N" >"$w/examples"
    while IFS= read -r ex; do
        kind=example
        [ -s "$ex.errors" ] && kind=rejected-example
        # shellcheck disable=SC2086
        if (ulimit -t "$CPU"; eval "exec nice -n 10 \"\$KPATH\" parse $opts \"\$g\" \"\$ex\"") >/dev/null 2>"$w/parse.err"; then
            printf '%s\t%s\t%s\tparses\t-\n' "$kind" "$d" "$ex"
        else
            rc=$?
            if [ $rc -gt 128 ]; then
                c="cpu limit"
            else
                c=$(cause_of "$w/parse.err")
            fi
            printf '%s\t%s\t%s\tfails\t%s\n' "$kind" "$d" "$ex" "${c:-exit $rc}"
        fi
    done <"$w/examples"
}

if [ "${1:-}" = --one ]; then
    cd "$ROOT" && one_grammar "$2"
    exit 0
fi

if [ "${REPORT:-}" = 1 ]; then
    : "${OUT:?REPORT=1 needs OUT, the directory of an earlier sweep}"
else
keep=${OUT:-}
OUT=${OUT:-$(mktemp -d)} || exit 1
[ -n "$keep" ] || trap 'rm -rf "$OUT"' EXIT
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
export OUT
if [ -n "${KPATH_GRAMMARS_V4:-}" ]; then
    ROOT=$KPATH_GRAMMARS_V4
else
    git_dir=${KPATH_GRAMMARS_V4_GIT:-/work/.mirror/antlr+grammars-v4/repo}
    if [ ! -d "$git_dir" ]; then
        echo "grammars-v4 sweep: skipped (set KPATH_GRAMMARS_V4 to a checkout or KPATH_GRAMMARS_V4_GIT to its git directory)"
        exit 0
    fi
    ROOT=$OUT/grammars-v4
    if [ ! -f "$ROOT/.complete" ]; then
        # A checkout through a private index, without the missing blobs.
        mkdir -p "$ROOT"
        idx=$OUT/index
        GIT_INDEX_FILE=$idx git --git-dir="$git_dir" read-tree HEAD || exit 1
        git --git-dir="$git_dir" ls-tree -r HEAD | awk '$2 == "blob"' >"$OUT/blobs"
        cut -f1 "$OUT/blobs" | awk '{print $3}' | git --git-dir="$git_dir" cat-file --batch-check |
            awk '$2 == "missing" {print $1}' >"$OUT/missing"
        if [ -s "$OUT/missing" ]; then
            grep -F -f "$OUT/missing" "$OUT/blobs" | cut -f2 |
                GIT_INDEX_FILE=$idx git --git-dir="$git_dir" --work-tree="$ROOT" update-index --force-remove --stdin
        fi
        GIT_INDEX_FILE=$idx git --git-dir="$git_dir" --work-tree="$ROOT" checkout-index -a -f || exit 1
        : >"$ROOT/.complete"
    fi
fi
ROOT=$(cd "$ROOT" && pwd)
export ROOT
if [ -n "${GRAMMARS:-}" ]; then
    printf '%s\n' $GRAMMARS
else
    (cd "$ROOT" && find . -name desc.xml | sed -e 's|^\./||' -e 's|/desc.xml$||' | LC_ALL=C sort)
fi >"$OUT/grammars"
echo "N=$N CPU=$CPU KPATH=$KPATH" >"$OUT/settings"
xargs -P "$JOBS" -n 1 sh "$0" --one <"$OUT/grammars" >"$OUT/results.tsv" 2>"$OUT/log"
fi

# The report.
r=$OUT/results.tsv
gn=$(awk -F"$tab" '$1 == "grammar" && $4 != "none"' "$r" | wc -l)
gl=$(awk -F"$tab" '$1 == "grammar" && $4 == "loads"' "$r" | wc -l)
en=$(awk -F"$tab" '$1 == "example"' "$r" | wc -l)
ep=$(awk -F"$tab" '$1 == "example" && $4 == "parses"' "$r" | wc -l)
rn=$(awk -F"$tab" '$1 == "rejected-example"' "$r" | wc -l)
rp=$(awk -F"$tab" '$1 == "rejected-example" && $4 == "parses"' "$r" | wc -l)
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b) printf "%.1f%%", 100 * a / b; else print "-" }'; }
echo "grammars-v4 sweep: $(cat "$OUT/settings" 2>/dev/null || echo "N=$N CPU=$CPU KPATH=$KPATH")"
echo "grammars load:     $gl of $gn ($(pct "$gl" "$gn"))"
echo "examples parse:    $ep of $en ($(pct "$ep" "$en")) (of the loaded grammars)"
echo "antlr rejects:     $rn examples (with X.errors); kpath parses $rn of them: $rp"
echo
echo "causes of grammars that do not load (count, cause, first grammar):"
awk -F"$tab" '$1 == "grammar" && $4 != "loads" { n[$5]++; if (!($5 in f)) f[$5] = $2 }
    END { for (c in n) printf "%5d  %s  [%s]\n", n[c], c, f[c] }' "$r" | sort -k1,1nr -k2
echo
echo "causes of examples that do not parse (count, grammars, cause, first grammar):"
awk -F"$tab" '$1 == "example" && $4 == "fails" {
        n[$5]++; if (!(($5, $2) in seen)) { seen[$5, $2] = 1; g[$5]++ } if (!($5 in f)) f[$5] = $2 }
    END { for (c in n) printf "%5d %4d  %s  [%s]\n", n[c], g[c], c, f[c] }' "$r" | sort -k1,1nr -k3
