#!/bin/sh
# make bench, "generalize against real parsers" (issue #35): kpath
# grammar-from then kpath generalize against oracles made from parsers the
# project did not write, from the first 1, 2 and 5 samples of
# tests/bench/generalize/SAMPLES-N.txt:
#   json   Python's json.loads                  (samples json-N, reference grammars/json.ebnf)
#   jq     jq, a C program: one JSON text       (samples json-N, reference grammars/json.ebnf)
#   ini    Python's configparser, strict        (samples ini-N, reference generalize/ini-ref.ebnf)
#   csv    Python's csv.reader, strict, records of one width
#                                               (samples csv-N, reference generalize/csv-ref.ebnf)
#   arith  Python's ast, arithmetic only        (samples arith-N, reference grammars/arith.ebnf)
#   url    Node's WHATWG URL, strict lower case (samples weburl-N, reference generalize/url-ref.ebnf)
# (tests/bench/generalize/oracle.py and url_oracle.js say exactly what each
# accepts).  A subject whose interpreter (python3, node, jq) is absent is
# skipped, saying so.  Figures, as the AUTOGRAM paper reports them:
#   sound     the share of the $N inputs generated from the learned grammar
#             (random strategy, seed 1) that the oracle accepts;
#   complete  the share of the valid inputs among $N generated from the
#             reference grammar (random strategy, seed 2; the oracle judges
#             which are valid) that the learned grammar parses (kpath parse,
#             within $PARSE_TIMEOUT s each: a parse that takes longer counts
#             as not parsed);
#   queries   distinct runs of the oracle (the summary of generalize, at
#             most $MAX_QUERIES);
#   s         wall-clock seconds of generalize (-j $JOBS);
#   trees     the parse trees of the first sample under the learned grammar
#             (">2^64": more than fit in 64 bits; "-": the kpath does not
#             say, as before #35).
# Every query is a run of its own (kpath's oracle is a command per input),
# so the Python oracles run as `python3 -S -E` with one import: about 0.3 s a
# run on a loaded 2-core machine (2.4 s through a pyenv shim); the
# soundness and completeness judgements run the oracle once over all files.
# KPATH_BEFORE=BINARY (make bench: main's build/kpath when
# KPATH_BEFORE is given) adds the same figures for another kpath beside
# them, so the table shows the learner before and after.  The reference
# column is the AUTOGRAM paper's (one sample each; 100% sound everywhere).
# Environment: N (default 1000), COUNTS ("1 2 5"), SUBJECTS (all),
# JOBS (2), MAX_QUERIES (10000), PARSE_TIMEOUT (5), KEEP=DIR (keep the
# learned grammars and logs there), STRUCTURE=1 (generalize --structure).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
N=${N:-1000}
JOBS=${JOBS:-2}
COUNTS=${COUNTS:-1 2 5}
SUBJECTS=${SUBJECTS:-json jq ini csv arith url}
MAX_QUERIES=${MAX_QUERIES:-10000}
PARSE_TIMEOUT=${PARSE_TIMEOUT:-5}
BEFORE=${KPATH_BEFORE:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dir=$here/generalize
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# The interpreter itself, not a version manager's shim (pyenv's costs 2 s a run).
py=
if command -v python3 >/dev/null 2>&1; then
    py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
fi
node=$(command -v node 2>/dev/null)
jq=$(command -v jq 2>/dev/null)

needs() { # subject -> the interpreter it needs, or empty when present
    case $1 in
    json | ini | csv | arith) [ -n "$py" ] || echo python3 ;;
    jq) [ -n "$jq" ] || echo jq ;;
    url) [ -n "$node" ] || echo node ;;
    esac
}
samples_of() { case $1 in jq) echo json ;; url) echo weburl ;; *) echo "$1" ;; esac; }
reference_of() {
    case $1 in
    json | jq) echo "$root/grammars/json.ebnf" ;;
    arith) echo "$root/grammars/arith.ebnf" ;;
    *) echo "$dir/$1-ref.ebnf" ;;
    esac
}
autogram_of() { # the AUTOGRAM paper's completeness, one sample
    case $1 in json | jq) echo 100% ;; csv) echo 100% ;; url) echo 50.3% ;; ini) echo 16.1% ;;
    *) echo - ;; esac
}
# The oracle of a subject, one input on stdin, as kpath generalize runs it.
make_oracle() { # subject file
    case $1 in
    jq) printf '#!/bin/sh\nexec "%s" -ne "[inputs] | length == 1" >/dev/null 2>&1\n' "$jq" ;;
    url) printf '#!/bin/sh\nexec "%s" "%s"\n' "$node" "$dir/url_oracle.js" ;;
    *) printf '#!/bin/sh\nexec "%s" -S -E "%s" %s\n' "$py" "$dir/oracle.py" "$1" ;;
    esac >"$2"
    chmod +x "$2"
}
valid_files() { # subject dir -> the names of the valid .txt files in dir, one a line
    [ -n "$(ls "$2" | grep '\.txt$')" ] || return 0
    case $1 in
    jq) for f in "$2"/*.txt; do
            timeout 10 "$jq" -ne '[inputs] | length == 1' <"$f" >/dev/null 2>&1 && echo "$f"
        done ;;
    url) "$node" "$dir/url_oracle.js" --valid "$2"/*.txt ;;
    *) "$py" -S -E "$dir/oracle.py" "$1" --valid "$2"/*.txt ;;
    esac
}
now() { date +%s.%N; }
pct() { awk -v a="$1" -v t="$2" 'BEGIN { if (t) printf "%.1f%%", a * 100 / t; else printf "-" }'; }

measure() { # binary subject count tag -> "sound complete queries seconds trees"
    bin=$1 s=$2 c=$3 w=$tmp/$2-$3-$4
    set --
    i=1
    while [ $i -le "$c" ]; do
        set -- "$@" "$dir/$(samples_of "$s")-$i.txt"
        i=$((i + 1))
    done
    if ! "$bin" grammar-from "$@" -o "$w-concrete.ebnf" >"$w.log" 2>&1; then
        echo "grammar-from-failed - - - -"
        return
    fi
    t0=$(now)
    if ! "$bin" generalize "$w-concrete.ebnf" "$@" -o "$w.ebnf" -j "$JOBS" --timeout 10s \
        --max-queries "$MAX_QUERIES" ${STRUCTURE:+--structure} -- "$tmp/oracle-$s" >"$w.log" 2>&1; then
        echo "generalize-failed - - - -"
        return
    fi
    t1=$(now)
    [ -z "${KEEP:-}" ] || cp "$w.ebnf" "$w.log" "$KEEP/" 2>/dev/null
    queries=$(grep -E '^[0-9]+ quer' "$w.log" | tail -1 | awk '{ print $1 }')
    "$bin" gen --strategy random -n "$N" --seed 1 -o "$w-gen" "$w.ebnf" >/dev/null 2>&1
    ngen=$(ls "$w-gen" 2>/dev/null | grep -c '\.txt$')
    sound=$(valid_files "$s" "$w-gen" | wc -l)
    parsed=0
    while IFS= read -r f; do
        timeout "$PARSE_TIMEOUT" "$bin" parse "$w.ebnf" "$f" >/dev/null 2>&1 && parsed=$((parsed + 1))
    done <"$tmp/$s-valid"
    # the parse trees of the first sample under the grammar (kpath after #35 logs them)
    trees=$(sed -n 's/^parse trees of each sample under the grammar learned: [^ ]* \([^,]*\).*/\1/p' \
        "$w.log" | sed 's/more than /></; s/infinitely many/inf/; s/not counted.*/?/' |
        awk '{ if ($1 ~ /^[0-9]+$/ && length($1) > 6) printf "%.1e\n", $1; else print $1 }')
    echo "$(pct "$sound" "$ngen") $(pct "$parsed" "$nvalid") ${queries:--} \
$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }') ${trees:--}"
}

printf 'generalize against real parsers (N=%s, -j %s, at most %s queries)\n' "$N" "$JOBS" "$MAX_QUERIES"
row='%-6s %-3s | %6s %8s %7s %5s %6s'
if [ -n "$BEFORE" ]; then
    printf '%-6s %-3s | %-36s | %-36s | %s\n' "" "" "before: $BEFORE" "now: $KPATH" AUTOGRAM
    printf "$row | %6s %8s %7s %5s %6s | %s\n" subject n sound complete queries s trees \
        sound complete queries s trees complete
else
    printf "$row | %s\n" subject n sound complete queries s trees AUTOGRAM
fi
for s in $SUBJECTS; do
    missing=$(needs "$s")
    if [ -n "$missing" ]; then
        printf '%-6s skipped: no %s on this machine\n' "$s" "$missing"
        continue
    fi
    make_oracle "$s" "$tmp/oracle-$s"
    if ! "$KPATH" gen --strategy random -n "$N" --seed 2 -o "$tmp/$s-ref" "$(reference_of "$s")" \
        >/dev/null 2>&1; then
        printf '%-6s skipped: kpath gen failed on %s\n' "$s" "$(reference_of "$s")"
        continue
    fi
    valid_files "$s" "$tmp/$s-ref" >"$tmp/$s-valid"
    nvalid=$(wc -l <"$tmp/$s-valid")
    for c in $COUNTS; do
        # shellcheck disable=SC2046
        if [ -n "$BEFORE" ]; then
            set -- $(measure "$BEFORE" "$s" "$c" before) $(measure "$KPATH" "$s" "$c" now)
            printf "$row | %6s %8s %7s %5s %6s | %s\n" "$s" "$c" "$@" "$(autogram_of "$s")"
        else
            set -- $(measure "$KPATH" "$s" "$c" now)
            printf "$row | %s\n" "$s" "$c" "$@" "$(autogram_of "$s")"
        fi
    done
    printf '%-6s (reference: %s of %s generated inputs valid)\n' "$s" "$nvalid" "$N"
done
echo "(AUTOGRAM, one sample each: 100% sound for every subject)"
