#!/bin/sh
# make formats-check: real ANTLR grammars from grammars-v4 through kpath's
# .g4 importer.  The grammars are not part of kpath: point KPATH_GRAMMARS_V4
# at a checkout of grammars-v4 (the check is skipped when it is not set).
# For each grammar: does it load, its k-path counts for k = 1, 2, 3, and the
# share of its example inputs (examples/, at most $MAX_EXAMPLES of them, each
# at most 64K; not the .tree, .errors and .trq files of its test runner) that
# `kpath parse` accepts within $PARSE_SECONDS seconds.
# Why a grammar or an example fails is explained in docs/formats.md ("ANTLR
# grammars").
set -u
: "${KPATH:?KPATH must name the kpath binary}"
# The same for TRIBBLE's own grammars (KPATH_TRIBBLE: a checkout of
# havrikov/tribble; its tribble-core/src/test/resources/*.tribble) and
# Fandango's (KPATH_FANDANGO: a checkout of fandango-fuzzer/fandango; every
# .fan in it): how many load, and the first error of each that does not.
other_formats() {
    label=$1 root=$2 pattern=$3
    if [ -z "$root" ] || [ ! -d "$root" ]; then
        echo "formats-check: $label skipped (set $4 to a checkout)"
        return
    fi
    n=0 ok=0
    for f in $(find "$root" -path "$pattern" -type f | LC_ALL=C sort); do
        n=$((n + 1))
        if timeout 60 "$KPATH" info "$f" >/dev/null 2>"$tmp/err"; then
            ok=$((ok + 1))
        else
            echo "  $(grep -m1 'error' "$tmp/err" | sed "s|^$root/||")"
        fi
    done
    echo "formats-check: $label: $ok of $n grammars load"
}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
other_formats TRIBBLE "${KPATH_TRIBBLE:-}" '*/src/test/resources/*.tribble' KPATH_TRIBBLE
other_formats Fandango "${KPATH_FANDANGO:-}" '*.fan' KPATH_FANDANGO
dir=${KPATH_GRAMMARS_V4:-}
if [ -z "$dir" ] || [ ! -d "$dir" ]; then
    echo "formats-check: ANTLR skipped (set KPATH_GRAMMARS_V4 to a grammars-v4 checkout)"
    exit 0
fi
MAX_EXAMPLES=${MAX_EXAMPLES:-20}
PARSE_SECONDS=${PARSE_SECONDS:-10}
GRAMMARS=${GRAMMARS:-"json/JSON.g4 csv/CSV.g4 url/url.g4 arithmetic/arithmetic.g4
toml/TomlParser.g4 sql/sqlite/SQLiteParser.g4 lua/LuaParser.g4 c/CParser.g4
javascript/javascript/JavaScriptParser.g4 java/java/JavaParser.g4"}
printf '%-42s %-6s %9s %9s %10s %s\n' grammar loads k=1 k=2 k=3 "examples parsed"
loaded=0 total=0
for g in $GRAMMARS; do
    total=$((total + 1))
    path=$dir/$g
    if ! timeout 60 "$KPATH" info "$path" >"$tmp/info" 2>"$tmp/err"; then
        printf '%-42s %-6s %s\n' "$g" no "$(grep -m1 'error' "$tmp/err")"
        continue
    fi
    loaded=$((loaded + 1))
    k1=$(sed -n 's/^  k=1: //p' "$tmp/info")
    k2=$(sed -n 's/^  k=2: //p' "$tmp/info")
    k3=$(sed -n 's/^  k=3: //p' "$tmp/info")
    ok=0 n=0
    for ex in $(find "$(dirname "$path")/examples" -type f ! -name '*.tree' ! -name '*.errors' ! -name '*.trq*' \
                    2>/dev/null | LC_ALL=C sort | head -n "$MAX_EXAMPLES"); do
        n=$((n + 1))
        if timeout "$PARSE_SECONDS" "$KPATH" parse --max-input-size 64K "$path" "$ex" \
               >/dev/null 2>&1; then
            ok=$((ok + 1))
        fi
    done
    share="-"
    [ "$n" -gt 0 ] && share="$ok/$n ($((100 * ok / n))%)"
    printf '%-42s %-6s %9s %9s %10s %s\n' "$g" yes "$k1" "$k2" "$k3" "$share"
done
echo "formats-check: $loaded of $total grammars load"
