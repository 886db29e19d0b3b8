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
