#!/bin/sh
# kpath reduce on 60 random json inputs and on the hand-written expr samples:
# the reduced suite covers exactly the same k-paths for every k up to K (the
# uncovered lists of kpath coverage, an independent measurement, are equal),
# and no kept input is redundant (without any one of them, coverage drops).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

uncovered() { # GRAMMAR K FILES... -> the K-paths no file covers
    ug=$1 uk=$2; shift 2 # (sh has no locals: names of their own)
    "$KPATH" coverage -k "$uk" --uncovered "$ug" "$@" 2>/dev/null
}

check() { # NAME GRAMMAR K INPUTS...
    name=$1 g=$2 k=$3; shift 3
    "$KPATH" reduce -k "$k" -o "$tmp/$name" "$g" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
        { cat "$tmp/$name.err" >&2; fail "$name: reduce failed"; }
    kept=$(ls "$tmp/$name" | grep -c '\.txt$')
    given=$(find "$@" -type f ! -name manifest.json | wc -l)
    [ "$kept" -ge 1 ] || fail "$name: nothing kept"
    [ "$kept" -lt "$given" ] || fail "$name: $kept of $given kept: nothing reduced"
    grep -q "^kept $kept of $given inputs" "$tmp/$name.out" || { cat "$tmp/$name.out" >&2; fail "$name: report"; }
    j=1
    while [ "$j" -le "$k" ]; do
        uncovered "$g" "$j" "$@" >"$tmp/all.$j"
        uncovered "$g" "$j" "$tmp/$name" >"$tmp/red.$j"
        cmp -s "$tmp/all.$j" "$tmp/red.$j" || { diff "$tmp/all.$j" "$tmp/red.$j" | head >&2; fail "$name: $j-path coverage changed"; }
        j=$((j + 1))
    done
    # Irredundant: dropping any one kept input loses some j-path (j <= k).
    for f in "$tmp/$name"/*.txt; do
        rm -rf "$tmp/less"; mkdir "$tmp/less"
        for o in "$tmp/$name"/*.txt; do [ "$o" = "$f" ] || cp "$o" "$tmp/less/"; done
        lost=0 j=1
        while [ "$j" -le "$k" ]; do
            if [ -n "$(ls "$tmp/less")" ]; then uncovered "$g" "$j" "$tmp/less" >"$tmp/less.$j"
            else uncovered "$g" "$j" /dev/null >"$tmp/less.$j"; fi
            cmp -s "$tmp/red.$j" "$tmp/less.$j" || lost=1
            j=$((j + 1))
        done
        [ "$lost" = 1 ] || fail "$name: $(basename "$f") is redundant"
    done
    # The manifest names each file's source.
    for f in "$tmp/$name"/*.txt; do
        b=$(basename "$f")
        src=$(grep "\"name\": \"$b\"" "$tmp/$name/manifest.json" | sed 's/.*"source": "\([^"]*\)".*/\1/')
        [ -n "$src" ] && cmp -s "$f" "$src" || fail "$name: $b does not match its source '$src'"
    done
}

"$KPATH" gen --strategy random -n 60 --seed 7 -o "$tmp/rand" grammars/json.ebnf 2>/dev/null ||
    fail "gen"
check json2 grammars/json.ebnf 2 "$tmp/rand"
check json3 grammars/json.ebnf 3 "$tmp/rand"
check expr grammars/expr.ebnf 2 tests/samples/expr/valid
exit 0
