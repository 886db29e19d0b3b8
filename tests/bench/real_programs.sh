#!/bin/sh
# make bench (section explain): explain and target on real programs that
# nobody here wrote, built at bench time from a checkout named by an
# environment variable (nothing of them is in this repository; see
# docs/benchmarks.md for where to get them):
#
#   KPATH_TINYEXPR  a checkout of github.com/codeplea/tinyexpr (tinyexpr.c)
#   KPATH_INIH      a checkout of github.com/benhoyt/inih (ini.c)
#
# Called by tests/bench/bench_explain.c:
#   real_programs.sh prep NAME SRC DIR KPATH
#     writes a driver of our own into DIR, builds it with the program's
#     source under --coverage, makes $TRAIN training and $TEST test inputs
#     (kpath gen --strategy random, seeds 1 and 2) and runs both with
#     --gcov: DIR/train.jsonl, DIR/test.jsonl.  Prints the grammar used.
#   real_programs.sh target NAME DIR KPATH FEATURE...
#     per feature, kpath target --run: $N targeted inputs against $N random
#     ones of the same size budget (what target --run does), relative and
#     absolute coverage, and each set's mean size in bytes.
# Prints figures, asserts nothing.
set -u
mode=$1
name=$2
TRAIN=${TRAIN:-400}
TEST=${TEST:-400}
N=${N:-20}
grammar_of() {
    case $1 in
    tinyexpr) echo grammars/arith.ebnf ;;
    inih) echo grammars/ini.ebnf ;;
    esac
}
g=$(grammar_of "$name")
if [ "$mode" = prep ]; then
    src=$3 dir=$4 kpath=$5
    case $name in
    tinyexpr)
        [ -f "$src/tinyexpr.c" ] || { echo "no $src/tinyexpr.c"; exit 1; }
        # Our driver: the expression on stdin, its value on stdout; exit 2
        # when tinyexpr cannot parse it.
        cat >"$dir/driver.c" <<'C'
#include <stdio.h>
#include "tinyexpr.h"
int main(void)
{
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, stdin);
    buf[n] = 0;
    int err;
    double v = te_interp(buf, &err);
    if (err)
        return 2;
    printf("%g\n", v);
    return 0;
}
C
        files="$dir/driver.c $src/tinyexpr.c" libs=-lm depth=8 ;;
    inih)
        [ -f "$src/ini.c" ] || { echo "no $src/ini.c"; exit 1; }
        # Our driver: the INI text on stdin, one line per name=value.
        cat >"$dir/driver.c" <<'C'
#include <stdio.h>
#include "ini.h"
static int handler(void *user, const char *section, const char *name, const char *value)
{
    (void)user;
    printf("%s.%s=%s\n", section, name ? name : "", value ? value : "");
    return 1;
}
int main(void)
{
    return ini_parse_file(stdin, handler, NULL) ? 2 : 0;
}
C
        files="$dir/driver.c $src/ini.c" libs= depth=6 ;;
    *) echo "unknown program $name"; exit 1 ;;
    esac
    (cd "$dir" && cc -O0 -g --coverage -I"$src" -o prog $files $libs) >"$dir/cc.log" 2>&1 ||
        { echo "build failed: $(tail -n 1 "$dir/cc.log")"; exit 1; }
    for set in train:1:$TRAIN test:2:$TEST; do
        s=${set%%:*} rest=${set#*:} seed=${set#*:}; seed=${seed%%:*} n=${rest#*:}
        "$kpath" gen --strategy random -n "$n" --max-depth "$depth" --seed "$seed" \
            -o "$dir/$s" "$g" >/dev/null 2>&1 || { echo "gen failed"; exit 1; }
        "$kpath" run -q -j 2 --gcov "$dir" --results "$dir/$s.jsonl" "$g" "$dir/$s" \
            -- "$dir/prog" >/dev/null 2>"$dir/run.log" ||
            { echo "run failed: $(tail -n 1 "$dir/run.log")"; exit 1; }
    done
    echo "$g"
    exit 0
fi
# target
dir=$3 kpath=$4
shift 4
printf '    %-28s %-22s %-22s\n' feature "targeted rel/abs mean" "random rel/abs mean"
for f in "$@"; do
    if "$kpath" target -n "$N" --gen-depth 10 --feature "$f" -j 2 --gcov "$dir" \
        "$g" "$dir/train.jsonl" --run -- "$dir/prog" >/dev/null 2>"$dir/target.err"; then
        means=$(sed -n 's/.*targeted (mean \([0-9.]*\) bytes) and .* (mean \([0-9.]*\) bytes;.*/\1 \2/p' "$dir/target.err")
        t=$(grep '^  targeted ' "$dir/target.err" | awk '{print $2, $NF}')
        r=$(grep '^  random ' "$dir/target.err" | awk '{print $2, $NF}')
        weak=$(grep -c 'warning: a weak rule' "$dir/target.err")
        printf '    %-28s %-22s %-22s%s\n' "$f" "$t ${means% *}B" "$r ${means#* }B" \
            "$([ "$weak" -gt 0 ] && echo '  (weak rule)')"
    else
        printf '    %-28s %s\n' "$f" "$(tail -n 1 "$dir/target.err" | cut -c1-110)"
    fi
done
