#!/bin/sh
# Progress on stderr (issue 17, point 3: a default cover writes its inputs
# only at the end, so a long run must not be silent).  Checked without
# timing: the last progress line is always written, and it must agree with
# what the run made.  With --keep-redundant nothing is dropped, so the inputs
# made are the files written; "0 2-paths left" must mean full coverage,
# which kpath coverage confirms by parsing the files back (125 2-paths on
# expr.ebnf).  The default drops and shrinks at the end: it says it is
# choosing among the same inputs (unbounded packing, --pack-size 0: with
# the default bound greedy makes inputs that drop_redundant then drops, and
# the pass chooses among fewer).  Off a terminal there is no progress
# unless asked (logs and goldens stay as they were); on one (script(1)) the
# line is rewritten in place and cleared before the summary.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=grammars/expr.ebnf

"$KPATH" cover --progress --keep-redundant --pack-size 0 -k 2 -o "$tmp/all" $g 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "cover --progress --keep-redundant failed"; }
n=$(ls "$tmp/all" | grep -c '^[0-9]*\.txt$')
[ "$n" -gt 1 ] || fail "expected several inputs, got $n"
last=$(grep 'inputs made' "$tmp/err" | tail -n 1)
[ "$last" = "cover: $n inputs made, 0 2-paths left to cover" ] ||
    { cat "$tmp/err" >&2; fail "last progress line: '$last', expected $n inputs made, 0 left"; }
"$KPATH" coverage -k 2 $g "$tmp"/all/*.txt >"$tmp/cov" 2>&1 || fail "coverage of the suite failed"
grep -q '^total .*k=2 125/125 (100.0%)' "$tmp/cov" || { cat "$tmp/cov" >&2; fail "the suite is not complete"; }
# the counts never go down, and every line is a progress line of cover
grep 'inputs made' "$tmp/err" | sed 's/^cover: \([0-9]*\) inputs\{0,1\} made.*/\1/' |
    awk 'NR > 1 && $1 < prev { bad = 1 } { prev = $1 } END { exit bad }' ||
    fail "progress counts went down"

"$KPATH" cover --progress --pack-size 0 -k 2 -o "$tmp/def" $g 2>"$tmp/err" || fail "cover --progress failed"
grep -qx "cover: choosing the suite among $n inputs" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "the default does not say it is choosing among its $n inputs"; }

"$KPATH" cover -k 2 -o "$tmp/quiet" $g 2>"$tmp/err" || fail "cover failed"
grep -q 'inputs made\|choosing the suite' "$tmp/err" && fail "progress off a terminal without --progress"

if command -v script >/dev/null 2>&1; then
    script -qec "\"$KPATH\" cover -k 2 -o \"$tmp/tty\" $g" /dev/null >"$tmp/tty.out" 2>&1 ||
        fail "cover on a terminal failed"
    esc=$(printf '\033')
    grep -q "cover: [0-9]* inputs\{0,1\} made" "$tmp/tty.out" || fail "no progress on a terminal"
    grep -q "$esc\[K" "$tmp/tty.out" || fail "the terminal's progress line is not cleared"
else
    echo "cover-progress: script(1) is missing, the terminal part is skipped" >&2
fi
exit 0
