#!/bin/sh
# kpath bonsai within the bounds of a kpath cover run covers every k-path
# (k = 1 .. K) the cover suite covers (measured independently by kpath
# coverage), every kept input is within the size bound and added coverage
# when it was kept, and the same seed gives the same corpus.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

check() { # GRAMMAR K DEPTH REPS
    g=$1 k=$2 d=$3 r=$4 name=$(basename "$1" .ebnf)-$2
    "$KPATH" cover -k "$k" --max-depth "$d" --max-repetitions "$r" -o "$tmp/cover-$name" "$g" \
        2>/dev/null || fail "$name: cover"
    "$KPATH" bonsai -k "$k" --max-depth "$d" --max-repetitions "$r" --max-bytes 4096 \
        -o "$tmp/bonsai-$name" "$g" 2>"$tmp/err-$name" || { cat "$tmp/err-$name"; fail "$name: bonsai"; }
    j=1
    while [ "$j" -le "$k" ]; do
        "$KPATH" coverage -k "$j" --uncovered "$g" "$tmp/cover-$name" 2>/dev/null | sort >"$tmp/c"
        "$KPATH" coverage -k "$j" --uncovered "$g" "$tmp/bonsai-$name" 2>/dev/null | sort >"$tmp/b"
        # k-paths bonsai leaves uncovered that the cover suite covers: none.
        missed=$(comm -23 "$tmp/b" "$tmp/c")
        [ -z "$missed" ] || fail "$name: bonsai misses $j-paths cover covers: $missed"
        j=$((j + 1))
    done
    # Each kept input added something, and none is over 4096 bytes.
    grep -q '"new_paths": 0, "new_features": 0}' "$tmp/bonsai-$name/manifest.json" && fail "$name: an input added nothing"
    for f in "$tmp/bonsai-$name"/*.txt; do
        [ "$(wc -c <"$f")" -le 4096 ] || fail "$name: $f is over the size bound"
    done
    grep -q '^corpus: ' "$tmp/err-$name" || fail "$name: no summary"
}

check grammars/json.ebnf 2 8 3
check grammars/expr.ebnf 2 8 2
check grammars/expr.ebnf 3 7 2

"$KPATH" bonsai --seed 5 grammars/expr.ebnf >"$tmp/one" 2>/dev/null || fail "seed run 1"
"$KPATH" bonsai --seed 5 grammars/expr.ebnf >"$tmp/two" 2>/dev/null || fail "seed run 2"
cmp -s "$tmp/one" "$tmp/two" || fail "the same seed gave different corpora"
exit 0
