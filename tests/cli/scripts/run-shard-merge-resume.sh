#!/bin/sh
# Shards merged equal a single run; so does a run killed after its 4th record
# (a test hook, not timing luck) and resumed; an interrupted run (SIGINT at
# its 3rd record) stops with status 130 and keeps its 3 records; a file with
# records is not appended to without --resume; results of another command
# are never merged.  Records compare without the fields that measure time
# and memory.  Through GNU parallel too, when it is installed.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
build=$(dirname "$KPATH")
calc=$build/subjects/calc
[ -x "$calc" ] || fail "no $calc (make subjects)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$KPATH" cover -k 1 --start Expr grammars/arith.ebnf -o "$tmp/suite" 2>/dev/null || fail "cover"
total=$(ls "$tmp/suite"/*.txt | wc -l)
run() { "$KPATH" run -q --gcov "$build/subjects" --start Expr "$@"; }
normal() { sed 's/"wall_ms":[0-9.]*,"cpu_ms":[0-9.]*,"max_rss_kb":[0-9]*,//' "$1"; }

run -j 2 --results "$tmp/single.jsonl" grammars/arith.ebnf "$tmp/suite" -- "$calc" \
    >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "single run"; }
[ "$(grep -c '"input"' "$tmp/single.jsonl")" = "$total" ] || fail "single run: not $total records"
"$KPATH" run --merge --results "$tmp/single-sorted.jsonl" "$tmp/single.jsonl" 2>/dev/null ||
    fail "merge of one file"

for i in 1 2 3; do
    run -j 1 --shard $i/3 --results "$tmp/shard$i.jsonl" grammars/arith.ebnf "$tmp/suite" \
        -- "$calc" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "shard $i"; }
done
n1=$(grep -c '"input"' "$tmp/shard1.jsonl")
[ "$n1" = $(((total + 2) / 3)) ] || fail "shard 1/3 has $n1 of $total inputs"
"$KPATH" run --merge --results "$tmp/merged.jsonl" "$tmp/shard3.jsonl" "$tmp/shard1.jsonl" \
    "$tmp/shard2.jsonl" 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "merge"; }
normal "$tmp/merged.jsonl" >"$tmp/a"
normal "$tmp/single-sorted.jsonl" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head >&2; fail "merged shards differ from the single run"; }

# Killed after the 4th record, resumed: the same records.
KPATH_TEST_KILL_AFTER=4 run -j 1 --results "$tmp/resumed.jsonl" grammars/arith.ebnf \
    "$tmp/suite" -- "$calc" >/dev/null 2>&1
status=$?
[ "$status" = 137 ] || fail "the kill hook: exit status $status"
[ "$(grep -c '"input"' "$tmp/resumed.jsonl")" = 4 ] || fail "killed run kept not 4 records"
run -j 1 --results "$tmp/resumed.jsonl" grammars/arith.ebnf "$tmp/suite" -- "$calc" \
    >/dev/null 2>"$tmp/err"
[ $? = 2 ] || fail "appending without --resume was not refused"
grep -qF "$tmp/resumed.jsonl: error: already records 4 runs: --resume skips them, or choose another --results" \
    "$tmp/err" || { cat "$tmp/err" >&2; fail "no message for records without --resume"; }
run -j 2 --resume --results "$tmp/resumed.jsonl" grammars/arith.ebnf "$tmp/suite" -- "$calc" \
    >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "resume"; }
grep -qF "(4 already there, skipped)" "$tmp/err" || { cat "$tmp/err" >&2; fail "resume: skipped count"; }
"$KPATH" run --merge --results "$tmp/resumed-sorted.jsonl" "$tmp/resumed.jsonl" 2>/dev/null
normal "$tmp/resumed-sorted.jsonl" >"$tmp/c"
cmp -s "$tmp/c" "$tmp/b" || { diff "$tmp/c" "$tmp/b" | head >&2; fail "resumed run differs from the single run"; }

# Interrupted (SIGINT, as Ctrl-C) at the 3rd record.
KPATH_TEST_INTERRUPT_AFTER=3 run -j 1 --results "$tmp/int.jsonl" grammars/arith.ebnf \
    "$tmp/suite" -- "$calc" >/dev/null 2>"$tmp/err"
status=$?
[ "$status" = 130 ] || fail "interrupted: exit status $status"
grep -qF "kpath run: interrupted (SIGINT): 3 of $total runs recorded in $tmp/int.jsonl; --resume goes on from there" \
    "$tmp/err" || { cat "$tmp/err" >&2; fail "interrupted: message"; }
[ "$(grep -c '"input"' "$tmp/int.jsonl")" = 3 ] || fail "interrupted run kept not 3 records"

# Another command: never merged.
"$KPATH" run -q --start Expr --results "$tmp/other.jsonl" grammars/arith.ebnf "$tmp/suite" -- cat \
    >/dev/null 2>&1 || fail "run of cat"
"$KPATH" run --merge --results "$tmp/bad.jsonl" "$tmp/single.jsonl" "$tmp/other.jsonl" \
    2>"$tmp/err"
[ $? = 2 ] || fail "mismatched merge: exit status"
grep -q "^$tmp/other.jsonl" "$tmp/err" || { cat "$tmp/err" >&2; fail "mismatched merge: message"; }
[ -e "$tmp/bad.jsonl" ] && fail "mismatched merge wrote its output"

# GNU parallel, as on many machines (here: local jobs).
if command -v parallel >/dev/null 2>&1; then
    parallel --will-cite -j 3 "$KPATH" run -q -j 1 --gcov "$build/subjects" --start Expr \
        --shard {}/3 --results "$tmp/p{}.jsonl" grammars/arith.ebnf "$tmp/suite" -- "$calc" \
        ::: 1 2 3 >/dev/null 2>&1 || fail "parallel"
    "$KPATH" run --merge --results "$tmp/pm.jsonl" "$tmp"/p?.jsonl 2>/dev/null || fail "parallel merge"
    normal "$tmp/pm.jsonl" | cmp -s - "$tmp/b" || fail "GNU parallel shards differ from the single run"
else
    echo "SKIP: GNU parallel is not installed (Debian package parallel); shards ran one by one"
fi
exit 0
