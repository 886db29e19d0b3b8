#!/bin/sh
# Issue 10.6: the manifest gives each input kpath's depth (reference nodes on
# the longest root-to-leaf path) and the k-path paper's derivation depth
# (every node on that path).  tests/grammars/ok/short-not-shallow.ebnf, by
# hand: "t" is S_0 |_1 Y_3 Z_5 T_8 "t"_11 (references S Y Z T: depth 4,
# derivation depth 6); "abcdt" is S_0 |_1 X_2 and X's nested sequences ~_4
# ~_7 ~_10 ~_13, then T_15 "t"_11 (references S X T: depth 3, derivation
# depth 9).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$KPATH" cover -k 1 -o "$tmp/suite" tests/grammars/ok/short-not-shallow.ebnf 2>"$tmp/err" ||
    fail "cover: $(cat "$tmp/err")"
m=$tmp/suite/manifest.json
for f in "$tmp"/suite/*.txt; do
    name=$(basename "$f")
    case $(cat "$f") in
    t) want='"size": 1, "depth": 4, "derivation_depth": 6,' ;;
    abcdt) want='"size": 5, "depth": 3, "derivation_depth": 9,' ;;
    *) fail "unexpected input $(cat "$f")" ;;
    esac
    grep -qF "{\"name\": \"$name\", $want" "$m" || fail "$name: not $want in $(grep "$name" "$m")"
done
[ "$(ls "$tmp"/suite/*.txt | wc -l | tr -d ' ')" = 2 ] || fail "expected 2 inputs"
exit 0
