#!/bin/sh
# kpath bonsai --run: behaviour features count as coverage.
# 1. A feature every run reaches (a --features-cmd printing "same") changes
#    nothing: the first kept input reaches it anyway, and generation does not
#    depend on the runs, so the corpus is the one bonsai makes without --run.
# 2. A feature per input length (len:N) must make bonsai keep one input of
#    every length any candidate it ran had: the lengths in the corpus are
#    exactly the len:N features of DIR/results.jsonl (all candidates run).
# 3. Every kept input added a k-path or a feature (the manifest says which).
# 4. On calc (grammars/arith.ebnf), the corpus reaches every fn: feature that
#    the runs reached (the results file of the runs, read here).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
build=$(dirname "$KPATH")
calc=$build/subjects/calc
[ -x "$calc" ] || fail "no $calc (make subjects)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=grammars/json.ebnf
bounds="-k 1 --max-depth 5 --max-repetitions 2 --max-bytes 32"
"$KPATH" bonsai $bounds $g >"$tmp/plain" 2>"$tmp/err" || fail "bonsai: $(cat "$tmp/err")"
"$KPATH" bonsai $bounds --features-cmd 'echo same' -j 2 $g --run -- cat >"$tmp/same" 2>"$tmp/err" ||
    fail "bonsai --run: $(cat "$tmp/err")"
cmp -s "$tmp/plain" "$tmp/same" || fail "a feature every run reaches changed the corpus: $(diff "$tmp/plain" "$tmp/same")"
grep -q '^behaviour features reached: 2 (exit:0 same)$' "$tmp/err" || fail "report: $(cat "$tmp/err")"

"$KPATH" bonsai $bounds --features-cmd 'printf "len:%s\n" $(wc -c <"$KPATH_INPUT_FILE")' -j 2 \
    --runs "$tmp/runs" -o "$tmp/corpus" $g --run -- cat >/dev/null 2>"$tmp/err" ||
    fail "bonsai --run len: $(cat "$tmp/err")"
grep -o '"len:[0-9]*"' "$tmp/runs/results.jsonl" | tr -d '"' | sed 's/len://' | sort -un >"$tmp/ran"
for f in "$tmp/corpus"/*.txt; do wc -c <"$f"; done | sort -un >"$tmp/kept"
[ -s "$tmp/ran" ] || fail "no len: features recorded"
cmp -s "$tmp/ran" "$tmp/kept" || fail "lengths run $(tr '\n' ' ' <"$tmp/ran") vs kept $(tr '\n' ' ' <"$tmp/kept")"
grep -q '"new_paths": 0, "new_features": 0}' "$tmp/corpus/manifest.json" && fail "an input added nothing"
[ "$(ls "$tmp/corpus"/*.txt | wc -l)" -gt "$(wc -l <"$tmp/plain")" ] || fail "lengths kept no more inputs"

"$KPATH" bonsai -k 1 --max-depth 5 --max-repetitions 2 --max-bytes 32 --gcov "$build/subjects" -j 2 --runs "$tmp/calc" \
    grammars/arith.ebnf --run -- "$calc" >/dev/null 2>"$tmp/err" || fail "bonsai calc: $(cat "$tmp/err")"
grep -o '"fn:[a-z_]*"' "$tmp/calc/results.jsonl" | tr -d '"' | sort -u >"$tmp/ran"
sed -n 's/^behaviour features reached: [0-9]* (\(.*\))$/\1/p' "$tmp/err" | tr ' ' '\n' | grep '^fn:' | sort >"$tmp/kept"
[ -s "$tmp/kept" ] || fail "report: $(cat "$tmp/err")"
cmp -s "$tmp/ran" "$tmp/kept" || fail "functions run: $(cat "$tmp/ran"), corpus: $(cat "$tmp/kept")"
exit 0
