#!/bin/sh
# make bench, the bundled subject end to end through the CLI: behaviour
# targeting (kpath target --run) on build/subjects/calc.
# Training: $TRAIN random inputs of grammars/arith.ebnf (depth <= 8, seed 7)
# run with --gcov.  Per feature, $N targeted inputs against $N random ones
# (same depth bound and seed): the k-path paper's relative coverage fraction
# (share of inputs that reach the feature) and absolute (does any).
# Prints figures, asserts nothing.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
build=$(dirname "$KPATH")
calc=$build/subjects/calc
[ -x "$calc" ] || { echo "calc behaviour: skipped (no $calc: make subjects)"; exit 0; }
TRAIN=${TRAIN:-300}
N=${N:-40}
FEATURES=${FEATURES:-"signal:SIGSEGV fn:distributive_rule fn:division_by_zero fn:divide fn:negate fn:parse_group"}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=grammars/arith.ebnf
echo "== calc: targeted vs random inputs (kpath target --run, $TRAIN training inputs, $N each)"
"$KPATH" gen --strategy random -n "$TRAIN" --max-depth 8 --seed 7 -o "$tmp/train" $g 2>/dev/null
start=$(date +%s.%N)
"$KPATH" run -q -j 2 --gcov "$build/subjects" --results "$tmp/train.jsonl" $g "$tmp/train" \
    -- "$calc" >/dev/null 2>&1 || { echo "  training run failed"; exit 0; }
echo "  training: $TRAIN runs with --gcov in $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
printf '  %-22s %9s %-18s %-18s\n' feature "training" "targeted rel/abs" "random rel/abs"
for f in $FEATURES; do
    reached=$(grep -c "\"$f\"" "$tmp/train.jsonl")
    if "$KPATH" target -n "$N" --gen-depth 10 --seed 7 --feature "$f" -j 2 --gcov "$build/subjects" \
        $g "$tmp/train.jsonl" --run -- "$calc" >/dev/null 2>"$tmp/err"; then
        t=$(grep '^  targeted ' "$tmp/err" | awk '{print $2, $NF}')
        r=$(grep '^  random ' "$tmp/err" | awk '{print $2, $NF}')
        printf '  %-22s %5s/%-3s %-18s %-18s\n' "$f" "$reached" "$TRAIN" "$t" "$r"
    else
        printf '  %-22s %5s/%-3s %s\n' "$f" "$reached" "$TRAIN" "$(tail -n 1 "$tmp/err")"
    fi
done

# Concise suites with behaviour: kpath bonsai --run against "as many random
# inputs as bonsai ran, run, then kpath reduce --results" (the same bounds:
# depth <= $DEPTH, repetitions <= 3, k = 2), each also reduced.  Coverage:
# k-paths as kpath coverage measures them, and the behaviour features (fn:
# and outcomes) the corpus reaches.
DEPTH=${DEPTH:-10}
echo "== calc: concise suites with behaviour (bonsai --run vs random then reduce; k=2, depth <= $DEPTH, repetitions <= 3)"
printf '  %-24s %6s %7s %6s %8s %8s %9s %6s\n' suite inputs bytes mean "k=1" "k=2" features "s"
cov() { "$KPATH" coverage -k 2 $g "$1" 2>/dev/null | tail -n 1 | sed 's/.*k=1 \([0-9]*\/[0-9]*\).*k=2 \([0-9]*\/[0-9]*\).*/\1 \2/'; }
row() { # LABEL DIR FEATURES SECONDS
    n=$(ls "$2" | grep -c '\.txt$')
    bytes=$(cat "$2"/*.txt | wc -c)
    set -- "$1" "$2" "$3" "$4" $(cov "$2")
    printf '  %-24s %6s %7s %6s %8s %8s %9s %6s\n' "$1" "$n" "$bytes" \
        "$(awk -v b="$bytes" -v n="$n" 'BEGIN { printf "%.1f", n ? b / n : 0 }')" "$5" "$6" "$3" "$4"
}
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
start=$(now)
"$KPATH" bonsai -k 2 --max-depth "$DEPTH" --max-repetitions 3 -j 2 --gcov "$build/subjects" \
    --runs "$tmp/bruns" -o "$tmp/bonsai" $g --run -- "$calc" >/dev/null 2>"$tmp/berr" ||
    { echo "  bonsai failed: $(tail -n 1 "$tmp/berr")"; exit 0; }
t=$(secs "$start")
runs=$(($(wc -l <"$tmp/bruns/results.jsonl") - 1))
row "bonsai --run" "$tmp/bonsai" "$(sed -n 's/^behaviour features reached: \([0-9]*\).*/\1/p' "$tmp/berr")" "$t"
"$KPATH" reduce -k 2 $g "$tmp/bonsai" --results "$tmp/bruns/results.jsonl" -o "$tmp/bonsai-r" \
    >"$tmp/rerr" 2>&1
row "  then reduce" "$tmp/bonsai-r" "$(sed -n 's/.*features \([0-9]*\) (of.*/\1/p' "$tmp/rerr")" "-"
# Features only (the shortest input per feature, the redundant pruned): the
# corpus a coverage-guided Bonsai keeps; its k-paths are what it happens to hold.
start=$(now)
"$KPATH" bonsai -k 2 --max-depth "$DEPTH" --max-repetitions 3 -j 2 --gcov "$build/subjects" \
    --runs "$tmp/fruns" -o "$tmp/bonsai-f" $g --run --features-only -- "$calc" >/dev/null \
    2>"$tmp/ferr" || { echo "  bonsai --features-only failed: $(tail -n 1 "$tmp/ferr")"; exit 0; }
t=$(secs "$start")
row "bonsai --features-only" "$tmp/bonsai-f" \
    "$(sed -n 's/^behaviour features reached: \([0-9]*\).*/\1/p' "$tmp/ferr")" "$t"
start=$(now)
"$KPATH" gen --strategy random -n "$runs" --max-depth "$DEPTH" --max-repetitions 3 --seed 7 \
    -o "$tmp/random" $g 2>/dev/null
"$KPATH" run -q -j 2 --gcov "$build/subjects" --results "$tmp/random.jsonl" $g "$tmp/random" \
    -- "$calc" >/dev/null 2>&1
"$KPATH" reduce -k 2 $g "$tmp/random" --results "$tmp/random.jsonl" -o "$tmp/random-r" \
    >"$tmp/rerr" 2>&1
t=$(secs "$start")
features=$(sed -n 's/.*features \([0-9]*\) (of.*/\1/p' "$tmp/rerr")
row "random $runs" "$tmp/random" "$features" "-"
row "  then reduce" "$tmp/random-r" "$features" "$t"
echo "  (bonsai ran $runs candidates, --features-only $(($(wc -l <"$tmp/fruns/results.jsonl") - 1)); the random suite is as many runs as bonsai; s: wall-clock seconds)"
