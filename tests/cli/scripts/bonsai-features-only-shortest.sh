#!/bin/sh
# kpath bonsai --run --features-only (issue 33, item 3): inputs are kept for
# behaviour features only, the shortest candidate per feature, and after the
# last point the inputs that others cover are dropped, longest first.
# 1. A subject whose features are known exactly: S := Item+, Item := "a" |
#    "bb" | "cccc" | "d", and a feature command printing has:a, has:b, has:c
#    for the letters a, b, c an input holds and "mixed" when it holds two
#    different ones of them ("d" reaches no feature but exit:0).  By hand, the shortest input reaching each: has:a "a" (1 byte),
#    has:b "bb" (2), has:c "cccc" (4), mixed "abb" or "bba" (3), exit:0
#    "a" or "d".  Pruning longest first: "cccc" alone has has:c and stays;
#    "abb" (or "bba") alone has mixed and stays; "bb", "a" and "d" then add
#    nothing.
#    So the corpus is exactly "cccc" and one of "abb" / "bba": 2 inputs,
#    7 bytes, 5 features (no corpus covering the 5 has fewer bytes: has:c
#    needs "cccc", and mixed another letter beside it or in a second input).
#    Without --features-only the k-paths keep an input holding "d" too.
# 2. On calc (gcov): the corpus reaches every feature the runs reached, and
#    each input is, for some feature it reaches, no longer than the shortest
#    input run that reaches it (computed here from the runs kept by --runs).
# 3. --features-only without --run is refused.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
build=$(dirname "$KPATH")
calc=$build/subjects/calc
[ -x "$calc" ] || fail "no $calc (make subjects)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' 'S := Item+;' 'Item := "a" | "bb" | "cccc" | "d";' >"$tmp/abc.ebnf"
cat >"$tmp/feat.sh" <<'SH'
n=0
for l in a b c; do
    if grep -q "$l" "$KPATH_INPUT_FILE"; then echo "has:$l"; n=$((n + 1)); fi
done
[ "$n" -ge 2 ] && echo mixed
exit 0
SH
"$KPATH" bonsai -k 1 --max-depth 4 --max-repetitions 3 --max-bytes 32 --random 20 \
    --features-cmd "sh $tmp/feat.sh" -j 2 -o "$tmp/c" "$tmp/abc.ebnf" --run --features-only -- cat \
    >/dev/null 2>"$tmp/err" || fail "bonsai: $(cat "$tmp/err")"
sed -n 's/^behaviour features reached: 5 (\(.*\))$/\1/p' "$tmp/err" | tr ' ' '\n' | sort |
    tr '\n' ' ' | grep -qxF 'exit:0 has:a has:b has:c mixed ' || fail "features: $(cat "$tmp/err")"
for f in "$tmp/c"/*.txt; do cat "$f"; echo; done | sort >"$tmp/got"
printf 'abb\ncccc\n' >"$tmp/want1"
printf 'bba\ncccc\n' >"$tmp/want2"
cmp -s "$tmp/got" "$tmp/want1" || cmp -s "$tmp/got" "$tmp/want2" ||
    fail "corpus $(tr '\n' ' ' <"$tmp/got"), want cccc and abb or bba; $(cat "$tmp/err")"
[ "$(cat "$tmp/c"/*.txt | wc -c)" = 7 ] || fail "bytes"
grep -q '"features_only": true' "$tmp/c/manifest.json" || fail "manifest"

"$KPATH" bonsai -k 1 --max-depth 4 --max-repetitions 3 --max-bytes 32 --random 20 \
    --features-cmd "sh $tmp/feat.sh" -j 2 -o "$tmp/both" "$tmp/abc.ebnf" --run -- cat \
    >/dev/null 2>"$tmp/err" || fail "bonsai without --features-only: $(cat "$tmp/err")"
cat "$tmp/both"/*.txt | grep -q d || fail "k-paths kept no input holding d"

"$KPATH" bonsai -k 1 --max-depth 5 --max-repetitions 2 --max-bytes 32 --gcov "$build/subjects" \
    -j 2 --runs "$tmp/runs" -o "$tmp/calc" grammars/arith.ebnf --run --features-only -- "$calc" \
    >/dev/null 2>"$tmp/err" || fail "bonsai calc: $(cat "$tmp/err")"
# The runs: one line per run, "PATH FEATURE..."; then "CRC SIZE FEATURE..."
# (cksum of the input, to find a corpus file's run by its content).
sed -n 's/.*"input":"\([^"]*\)".*"features":\[\(.*\)\]}$/\1 \2/p' "$tmp/runs/results.jsonl" |
    tr -d '"' | tr ',' ' ' >"$tmp/runs.txt"
[ -s "$tmp/runs.txt" ] || fail "no runs read from $tmp/runs/results.jsonl"
cut -d' ' -f1 "$tmp/runs.txt" | xargs cksum >"$tmp/sums"
awk 'NR == FNR { key[$3] = $1 " " $2; next } { p = $1; $1 = key[p]; print }' \
    "$tmp/sums" "$tmp/runs.txt" >"$tmp/bysum"
# Per feature, the length of the shortest input run that reaches it.
awk '{ for (i = 3; i <= NF; i++) print $i, $2 }' "$tmp/bysum" | sort -k1,1 -k2,2n |
    awk '!seen[$1]++' >"$tmp/shortest"
cut -d' ' -f1 "$tmp/shortest" >"$tmp/ran"
: >"$tmp/reached"
for f in "$tmp/calc"/*.txt; do
    set -- $(cksum <"$f")
    feats=$(awk -v c="$1" -v s="$2" '$1 == c && $2 == s { $1 = ""; $2 = ""; print; exit }' "$tmp/bysum")
    [ -n "$feats" ] || fail "$f was not run"
    len=$2 ok=0
    for x in $feats; do
        echo "$x" >>"$tmp/reached"
        min=$(awk -v f="$x" '$1 == f { print $2 }' "$tmp/shortest")
        [ "$len" -le "$min" ] && ok=1
    done
    [ "$ok" = 1 ] || fail "$f ($len bytes) is longer than the shortest run for each of its features: $feats"
done
sort -u "$tmp/reached" >"$tmp/reached.s"
sort -u "$tmp/ran" | cmp -s - "$tmp/reached.s" || fail "features run $(tr '\n' ' ' <"$tmp/ran") vs reached $(tr '\n' ' ' <"$tmp/reached.s")"

"$KPATH" bonsai --features-only grammars/arith.ebnf >/dev/null 2>"$tmp/err" && fail "no --run accepted"
grep -q -- '--features-only needs --run' "$tmp/err" || fail "message: $(cat "$tmp/err")"
exit 0
