#!/bin/sh
# kpath reduce --results: behaviour features count like k-paths.  Five inputs
# of expr with the same k-paths ("1") reach features laid out as the classic
# instance where greedy set cover is suboptimal: T1 = f0..f6, T2 = f7..f13,
# S1 = f0-f3 + f7-f10 (the largest, greedy's first pick), S2 = f4,f5,f11,f12,
# S3 = f6,f13.  Greedy needs 3 inputs; the optimum is T1 + T2.  Without
# --results, one input suffices.  One record is found by content, not path.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/in"
for n in t1 t2 s1 s2 s3; do printf 1 >"$tmp/in/$n"; done
sha=$(printf 1 | sha256sum | cut -d' ' -f1)
feats() { # FIRST LAST... -> "f0","f1",...
    out=""
    while [ $# -gt 0 ]; do
        i=$1
        while [ "$i" -le "$2" ]; do out="$out${out:+,}\"f$(printf %02d "$i")\""; i=$((i + 1)); done
        shift 2
    done
    echo "$out"
}
{
    echo '{"kpath_results":1,"kpath_version":"0.1.0","grammar":"grammars/expr.ebnf","grammar_sha256":"","command":["true"],"collect":["outcome"]}'
    echo "{\"input\":\"$tmp/in/t1\",\"outcome\":\"exit:0\",\"features\":[$(feats 0 6)]}"
    echo "{\"input\":\"$tmp/in/t2\",\"outcome\":\"exit:0\",\"features\":[$(feats 7 13)]}"
    echo "{\"input\":\"$tmp/in/s1\",\"outcome\":\"exit:0\",\"features\":[$(feats 0 3 7 10)]}"
    echo "{\"input\":\"$tmp/in/s2\",\"outcome\":\"exit:0\",\"features\":[$(feats 4 5 11 12)]}"
    # s3 by content: another path, the same bytes
    echo "{\"input\":\"elsewhere/s3\",\"input_sha256\":\"$sha\",\"outcome\":\"exit:0\",\"features\":[$(feats 6 6 13 13)]}"
} >"$tmp/results.jsonl"

# s3's record matches every input by content; only s3 has no record by path.
"$KPATH" reduce -k 2 --results "$tmp/results.jsonl" --exact-limit 0 grammars/expr.ebnf \
    "$tmp/in" >"$tmp/greedy" 2>"$tmp/err" || { cat "$tmp/err"; fail "greedy run"; }
grep -q '^kept 3 of 5 inputs' "$tmp/greedy" || { cat "$tmp/greedy"; fail "greedy should keep 3"; }
grep -q '^lower bound: 2 inputs; the result is at most 1 above it' "$tmp/greedy" ||
    { cat "$tmp/greedy"; fail "lower bound"; }

"$KPATH" reduce -k 2 --results "$tmp/results.jsonl" -o "$tmp/out" grammars/expr.ebnf \
    "$tmp/in" >"$tmp/exact" 2>"$tmp/err" || { cat "$tmp/err"; fail "exact run"; }
grep -q '^kept 2 of 5 inputs' "$tmp/exact" || { cat "$tmp/exact"; fail "exact should keep 2"; }
grep -q "^  $tmp/in/t1  1 bytes, only it covers: k=1 0, k=2 0, features 7\$" "$tmp/exact" ||
    { cat "$tmp/exact"; fail "t1 line"; }
grep -q "^  $tmp/in/t2  1 bytes, only it covers: k=1 0, k=2 0, features 7\$" "$tmp/exact" ||
    { cat "$tmp/exact"; fail "t2 line"; }
grep -q '^optimal: 2 inputs' "$tmp/exact" || { cat "$tmp/exact"; fail "not optimal"; }
grep -q '"only": \["feature f00", "feature f01"' "$tmp/out/manifest.json" || fail "manifest lists features"

"$KPATH" reduce -k 2 grammars/expr.ebnf "$tmp/in" >"$tmp/plain" 2>"$tmp/err" || fail "plain run"
grep -q '^kept 1 of 5 inputs' "$tmp/plain" || { cat "$tmp/plain"; fail "without results: 1"; }
exit 0
