#!/bin/sh
# make antlr-check (and make bench): kpath's reading of ANTLR grammars
# measured against ANTLR itself.  For each grammars-v4 grammar: ANTLR (the
# `antlr4` tool, 4.7.2 in Debian) generates its Java lexer and parser,
# javac compiles them with tests/bench/antlr_check/KpathAntlrCheck.java (a
# file is accepted when it parses from the start rule with no lexer or
# parser error, up to its end), and the script prints
#   k=1, k=2    inputs of `kpath cover -k 1` / `-k 2` that ANTLR accepts,
#               of all of them;
#   examples    of the grammar's example files (at most $MAX_EXAMPLES, each
#               at most 64K), how many ANTLR accepts and, of those, how many
#               `kpath parse` parses within $PARSE_SECONDS seconds; then
#               how many ANTLR rejects and, of those, how many kpath
#               parses all the same (the best: 0; kpath reads a sample's
#               tokens with the grammar's lexer first, as ANTLR does).
# The grammars come from a grammars-v4 git directory (KPATH_GRAMMARS_V4_GIT,
# default /work/.mirror/antlr+grammars-v4/repo) or a checkout
# (KPATH_GRAMMARS_V4); the start rule is the entry point that grammars-v4's
# pom.xml or desc.xml names.  Skipped, saying so, when antlr4, java or
# javac or the grammars are absent.  Not part of `make test`: figures, no
# assertions.  KEEP=DIR keeps every rejected input and ANTLR's reason there;
# CSV=FILE writes the table as CSV too.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
here=$(cd "$(dirname "$0")" && pwd)
# ANTLR_JAR=a complete ANTLR jar (tool and runtime; 4.13's comes with the npm
# package antlr4ng-cli) for grammars that need a newer ANTLR than Debian's
# (caseInsensitive, for one, is 4.10's).
ANTLR_JAR=${ANTLR_JAR:-}
tools="java javac"
[ -n "$ANTLR_JAR" ] || tools="antlr4 $tools"
for tool in $tools; do
    if ! command -v $tool >/dev/null 2>&1; then
        echo "antlr-check: skipped ($tool not installed; Debian: apt-get install antlr4 default-jdk-headless)"
        exit 0
    fi
done
if [ -n "$ANTLR_JAR" ]; then
    runtime=$ANTLR_JAR
    antlr_tool() { java -jar "$ANTLR_JAR" "$@"; }
else
    runtime=${ANTLR_RUNTIME:-/usr/share/java/antlr4-runtime.jar}
    antlr_tool() { antlr4 "$@"; }
fi
if [ ! -f "$runtime" ]; then
    echo "antlr-check: skipped (no ANTLR runtime jar at $runtime; set ANTLR_RUNTIME)"
    exit 0
fi
git_dir=${KPATH_GRAMMARS_V4_GIT:-/work/.mirror/antlr+grammars-v4/repo}
checkout=${KPATH_GRAMMARS_V4:-}
if [ -z "$checkout" ] && [ ! -d "$git_dir" ]; then
    echo "antlr-check: skipped (set KPATH_GRAMMARS_V4 to a grammars-v4 checkout or KPATH_GRAMMARS_V4_GIT to its git directory)"
    exit 0
fi
MAX_EXAMPLES=${MAX_EXAMPLES:-20}
PARSE_SECONDS=${PARSE_SECONDS:-10}
COVER_SECONDS=${COVER_SECONDS:-120}
GRAMMARS=${GRAMMARS:-"json csv json5 lua sql/sqlite css3 xml toml dot calculator smiles iri semver tinyc objc glsl graphql"}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
[ -z "${KEEP:-}" ] || mkdir -p "$KEEP"

# get DIR: the grammar's directory into $tmp/src/DIR
get() {
    mkdir -p "$tmp/src"
    if [ -n "$checkout" ]; then
        mkdir -p "$tmp/src/$1" && cp -R "$checkout/$1/." "$tmp/src/$1/"
    else
        # A partial mirror lacks some blobs: then file by file, without them.
        git --git-dir="$git_dir" archive HEAD "$1" 2>"$tmp/archive.err" | tar -x -C "$tmp/src" 2>/dev/null
        if [ -s "$tmp/archive.err" ]; then
            git --git-dir="$git_dir" ls-tree -r HEAD --name-only "$1" | while read -r f; do
                [ -f "$tmp/src/$f" ] && continue
                mkdir -p "$tmp/src/$(dirname "$f")"
                git --git-dir="$git_dir" show "HEAD:$f" >"$tmp/src/$f" 2>/dev/null || rm -f "$tmp/src/$f"
            done
        fi
    fi
}

# accepted LIST: the lines "ok" of a checker output
count_ok() { grep -c '^ok ' "$1"; }

# check OUT FILE...: run the checker on the files, its lines into OUT
check() {
    out=$1; shift
    if [ $# -eq 0 ]; then : >"$out"; return; fi
    (cd "$work/classes" && timeout 600 java -Xss64m -cp "$runtime:." KpathAntlrCheck \
        "$lexer_class" "$parser_class" "$start" "$@") >"$out" 2>"$tmp/java.err"
}

# keep LABEL OUT: copy the rejected inputs and their reasons into $KEEP
keep() {
    [ -n "${KEEP:-}" ] || return 0
    d="$KEEP/$(echo "$name" | tr / _)-$1"
    mkdir -p "$d"
    grep '^reject ' "$2" | while IFS="$(printf '\t')" read -r file why; do
        f=${file#reject }
        cp "$f" "$d/" 2>/dev/null
        printf '%s\t%s\n' "$(basename "$f")" "$why" >>"$d/reasons.txt"
    done
}

printf '%-12s %-10s %-10s %-34s %s\n' grammar k=1 k=2 "examples (antlr/kpath; rejected/kpath)" notes
[ -z "${CSV:-}" ] || echo "grammar,k1_accepted,k1_inputs,k2_accepted,k2_inputs,examples,antlr_accepts,kpath_parses,antlr_rejects,kpath_parses_rejected,notes" >"$CSV"
for name in $GRAMMARS; do
    work=$tmp/work/$name
    mkdir -p "$work/gen" "$work/classes"
    get "$name"
    src=$tmp/src/$name
    # The grammar files: the parser (or combined) grammar and its lexer.
    parser_file= parser_class= lexer_class=
    # Where a directory holds several parser grammars (GLSL's GLSLParser
    # and GLSLPreParser), the one grammars-v4 names: <grammarName>Parser.
    gn=$(sed -n 's/.*<grammarName>\(.*\)<\/grammarName>.*/\1/p' "$src/pom.xml" 2>/dev/null | sed -n 1p)
    [ -n "$gn" ] || gn=$(sed -n 's/.*<grammar-name>\(.*\)<\/grammar-name>.*/\1/p' "$src/desc.xml" 2>/dev/null | sed -n 1p)
    for f in "$src"/*.g4; do
        decl=$(grep -m1 -E '^[[:space:]]*(lexer[[:space:]]+|parser[[:space:]]+)?grammar[[:space:]]' "$f")
        gname=$(echo "$decl" | sed -E 's/.*grammar[[:space:]]+([A-Za-z0-9_]+).*/\1/')
        case $decl in
        *lexer*grammar*) lexer_class=$gname ;;
        *parser*grammar*)
            if [ -z "$parser_file" ] || [ "$gname" = "${gn}Parser" ]; then
                parser_file=$f parser_class=$gname
            fi ;;
        *grammar*) parser_file=$f parser_class=${gname}Parser lexer_class=${gname}Lexer ;;
        esac
    done
    start=$(sed -n 's/.*<entryPoint>\(.*\)<\/entryPoint>.*/\1/p' "$src/pom.xml" 2>/dev/null | head -1)
    [ -n "$start" ] || start=$(sed -n 's/.*<entry-point>\(.*\)<\/entry-point>.*/\1/p' "$src/desc.xml" 2>/dev/null | head -1)
    if [ -z "$parser_file" ] || [ -z "$lexer_class" ] || [ -z "$start" ]; then
        printf '%-12s %s\n' "$name" "no parser grammar, lexer or entry point found"
        continue
    fi
    # ANTLR's Java lexer and parser (with the grammar's Java base classes).
    if ! (cd "$src" && antlr_tool -Dlanguage=Java -o "$work/gen" *.g4) >"$tmp/antlr.err" 2>&1; then
        printf '%-12s %s\n' "$name" "antlr4 fails: $(grep -m1 -i error "$tmp/antlr.err")"
        continue
    fi
    [ ! -d "$src/Java" ] || cp "$src"/Java/*.java "$work/gen/" 2>/dev/null
    if ! javac -nowarn -encoding UTF-8 -cp "$runtime" -d "$work/classes" \
            "$work"/gen/*.java "$here/antlr_check/KpathAntlrCheck.java" >"$tmp/javac.err" 2>&1; then
        printf '%-12s %s\n' "$name" "javac fails: $(grep -m1 error "$tmp/javac.err")"
        continue
    fi
    notes=
    cells=
    for k in 1 2; do
        rm -rf "$work/k$k"
        timeout "$COVER_SECONDS" "$KPATH" cover -k $k --start "$start" "$parser_file" \
            -o "$work/k$k" >/dev/null 2>"$tmp/cover.err"
        rc=$?
        if [ $rc -ne 0 ]; then
            cells="$cells fail"
            if [ $rc -eq 124 ]; then
                notes="$notes k=$k: cover over ${COVER_SECONDS}s"
            else
                notes="$notes k=$k: $(grep -m1 -i error "$tmp/cover.err")"
            fi
            continue
        fi
        set -- $(find "$work/k$k" -name '*.txt' | LC_ALL=C sort)
        check "$tmp/k$k.out" "$@"
        cells="$cells $(count_ok "$tmp/k$k.out")/$#"
        keep k$k "$tmp/k$k.out"
    done
    set -- $cells
    k1=$1 k2=$2
    # The examples ANTLR accepts, and of those the ones kpath parses.
    set -- $(find "$src/examples" -type f -size -65k 2>/dev/null \
        | grep -v -E '\.(tree|errors|trq)$' | LC_ALL=C sort | head -n "$MAX_EXAMPLES")
    nex=$#
    check "$tmp/ex.out" "$@"
    nacc=$(count_ok "$tmp/ex.out")
    keep antlr-rejects "$tmp/ex.out"
    nparse=0
    for f in $(sed -n 's/^ok //p' "$tmp/ex.out"); do
        if timeout "$PARSE_SECONDS" "$KPATH" parse --start "$start" "$parser_file" "$f" \
                >/dev/null 2>"$tmp/parse.err"; then
            nparse=$((nparse + 1))
        elif [ -n "${KEEP:-}" ]; then
            d="$KEEP/$(echo "$name" | tr / _)-examples"
            mkdir -p "$d"
            printf '%s\t%s\n' "${f#$src/}" "$(head -c 300 "$tmp/parse.err" | head -1)" >>"$d/reasons.txt"
        fi
    done
    # The examples ANTLR rejects that kpath parses all the same.
    nrej=0 nwrong=0
    for f in $(sed -n 's/^reject \([^	]*\).*/\1/p' "$tmp/ex.out"); do
        nrej=$((nrej + 1))
        if timeout "$PARSE_SECONDS" "$KPATH" parse --start "$start" "$parser_file" "$f" \
                >/dev/null 2>&1; then
            nwrong=$((nwrong + 1))
        fi
    done
    printf '%-12s %-10s %-10s %-34s %s\n' "$name" "$k1" "$k2" "$nex: $nacc/$nparse; $nrej/$nwrong" "$notes"
    if [ -n "${CSV:-}" ]; then
        echo "$name,${k1%/*},${k1#*/},${k2%/*},${k2#*/},$nex,$nacc,$nparse,$nrej,$nwrong,\"$notes\"" >>"$CSV"
    fi
done
