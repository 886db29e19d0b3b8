#!/bin/sh
# make bench, "generalize" (issue #35): kpath grammar-from then kpath
# generalize against oracles from real parsers, from the first 1, 2 and 5
# samples of tests/bench/generalize/SUBJECT-N.txt:
#   json   jq, one JSON text exactly (jq -ne '[inputs] | length == 1');
#   ini    git config -f FILE --list (git's INI dialect);
#   arith  Python's ast restricted to arithmetic (tests/bench/generalize/oracle.py;
#          slow to start: ORACLE=python for json and ini too).
#   soundness     the share of $N inputs generated from the learned grammar
#                 (random strategy, seed 1) that the oracle accepts;
#   completeness  the share of the valid inputs among $N generated from the
#                 reference grammar (grammars/json.ebnf, ini.ebnf,
#                 arith.ebnf; random strategy, seed 2) that the learned
#                 grammar parses (within 5 s each);
#   queries       distinct runs of the oracle (the summary of generalize),
#   seconds       wall-clock time of generalize (-j $JOBS).
# Every query of generalize is a contained run (src/infer/membership); the
# measurement runs the same oracle on each file under timeout(1).
# KPATH_BEFORE=BINARY adds rows for another kpath (the code before #35).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
N=${N:-1000}
JOBS=${JOBS:-2}
COUNTS=${COUNTS:-1 2 5}
SUBJECTS=${SUBJECTS:-json ini arith}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
oracle=$here/generalize/oracle.py
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# The oracle of each subject: a script reading its input on stdin.
for s in json ini arith; do
    case "${ORACLE:-}$s" in
    json) printf '#!/bin/sh\nexec jq -ne "[inputs]|length==1" >/dev/null 2>&1\n' ;;
    ini) printf '#!/bin/sh\nexec git config -f /dev/stdin --list >/dev/null 2>&1\n' ;;
    *) printf '#!/bin/sh\nexec python3 "%s" %s\n' "$oracle" "$s" ;;
    esac >"$tmp/oracle-$s"
    chmod +x "$tmp/oracle-$s"
done
judge() { # subject file -> exit status of the oracle on it
    timeout 10 "$tmp/oracle-$1" <"$2" >/dev/null 2>&1
}
count_valid() { # subject file... -> how many the oracle accepts
    cs=$1 n=0
    shift
    for f in "$@"; do judge "$cs" "$f" && n=$((n + 1)); done
    echo $n
}
now() { date +%s.%N; }
pct() { awk -v a="$1" -v t="$2" 'BEGIN { printf "%.1f%%", t ? a * 100 / t : 0 }'; }
printf 'generalize against real parsers (N=%s, -j %s)\n' "$N" "$JOBS"
printf '%-6s %-7s %-7s %9s %9s %8s %8s\n' subject samples kpath sound complete queries seconds
for s in $SUBJECTS; do
    "$KPATH" gen --strategy random -n "$N" --seed 2 -o "$tmp/$s-ref" "$root/grammars/$s.ebnf" \
        >/dev/null 2>&1 || { echo "gen $s failed"; exit 1; }
    for f in "$tmp/$s-ref"/*.txt; do judge "$s" "$f" && echo "$f"; done >"$tmp/$s-valid"
    nvalid=$(wc -l <"$tmp/$s-valid")
    for c in $COUNTS; do
        samples=
        i=1
        while [ $i -le "$c" ]; do samples="$samples $here/generalize/$s-$i.txt"; i=$((i + 1)); done
        for which in before after; do
            if [ $which = before ]; then
                bin=${KPATH_BEFORE:-}
                [ -n "$bin" ] || continue
            else
                bin=$KPATH
            fi
            w=$tmp/$s-$c-$which
            # shellcheck disable=SC2086
            "$bin" grammar-from $samples -o "$w-concrete.ebnf" >/dev/null 2>&1 ||
                { echo "$s $c $which: grammar-from failed"; continue; }
            t0=$(now)
            # shellcheck disable=SC2086
            "$bin" generalize "$w-concrete.ebnf" $samples -o "$w.ebnf" -j "$JOBS" --timeout 10s \
                -- "$tmp/oracle-$s" >"$w.log" 2>&1 ||
                { echo "$s $c $which: generalize failed: $(tail -1 "$w.log")"; continue; }
            t1=$(now)
            queries=$(tail -1 "$w.log" | awk '{ print $1 }')
            rm -rf "$w-gen"
            "$bin" gen --strategy random -n "$N" --seed 1 -o "$w-gen" "$w.ebnf" >/dev/null 2>&1
            ngen=$(ls "$w-gen" 2>/dev/null | grep -c '\.txt$')
            sound=0
            [ "$ngen" -gt 0 ] && sound=$(count_valid "$s" "$w-gen"/*.txt)
            parsed=0
            while IFS= read -r f; do
                timeout 5 "$KPATH" parse "$w.ebnf" "$f" >/dev/null 2>&1 && parsed=$((parsed + 1))
            done <"$tmp/$s-valid"
            printf '%-6s %-7s %-7s %9s %9s %8s %8.1f\n' "$s" "$c" "$which" \
                "$(pct "$sound" "$ngen")" "$(pct "$parsed" "$nvalid")" "$queries" \
                "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
            cp "$w.ebnf" "${KEEP:-$tmp}/$s-$c-$which.ebnf" 2>/dev/null
        done
    done
    printf '%-6s (reference: %s valid of %s generated)\n' "$s" "$nvalid" "$N"
done
echo "(AUTOGRAM, one sample each: 100% sound; complete 100% JSON, 16.1% INI)"
