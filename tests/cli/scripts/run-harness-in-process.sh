#!/bin/sh
# kpath run --harness --in-process: one child runs input after input.  The
# features and outcome of each input, worked out by hand from
# tests/subjects/harness_list.c (as in run-harness.sh: every input of one
# byte or more runs LLVMFuzzerTestOneInput and hostile, then parse_value
# unless hostile ended the run; a digit parse_number, a letter parse_name,
# '[' parse_list, anything else fail), must be the same with a fork per
# input and in process, at -j 1 and -j 2, whatever ended the child before:
# '!' (SIGSEGV) and '~' (SIGABRT) in mid-batch, '@' killed by the timeout,
# '%' exit(3) each end the child with that input's outcome and the next
# input runs in a new one.  Each input's streams are its own ('$' prints,
# the input after it prints nothing).  The one difference is the risk the
# user accepts: '#' counts the '#' inputs its process has run, so the
# second '#' input of a child reaches fn:seen_before in process, never
# with a fork per input; --in-process-runs N bounds it (a new child every
# N inputs).  Nothing of the harness outlives kpath.  Skipped, saying so,
# without clang.
. tests/cli/harness_setup.sh
mkdir "$tmp/in"
# Names in the order a -j 1 run takes them (sorted).
put() { printf "$2" >"$tmp/in/$1.txt"; }
put a-num '12'
put b-segv '!'
put c-list '[ab,[3]]'
put d-hang '@'
put e-name 'ab'
put f-exit '%%'
put g-hash '#'
put h-hash '#1'
put i-empty ''
put j-abrt '~'
put k-other '+'
put l-print '$'
put m-num '7'
put n-fork '&'
put o-list '[]'

T=fn:LLVMFuzzerTestOneInput
expect() {
    case $1 in
    a-num) echo "exit:0,$T,fn:hostile,fn:parse_number,fn:parse_value" ;;
    b-segv) echo "$T,fn:hostile,signal:SIGSEGV" ;;
    c-list) echo "exit:0,$T,fn:hostile,fn:parse_list,fn:parse_name,fn:parse_number,fn:parse_value" ;;
    d-hang) echo "$T,fn:hostile,timeout" ;;
    e-name) echo "exit:0,$T,fn:hostile,fn:parse_name,fn:parse_value" ;;
    f-exit) echo "exit:3,$T,fn:hostile" ;;
    g-hash|h-hash|k-other|l-print|n-fork) echo "exit:0,$T,fn:fail,fn:hostile,fn:parse_value" ;;
    i-empty) echo "exit:0,$T,fn:fail,fn:parse_value" ;;
    j-abrt) echo "$T,fn:hostile,signal:SIGABRT" ;;
    m-num) echo "exit:0,$T,fn:hostile,fn:parse_number,fn:parse_value" ;;
    o-list) echo "exit:0,$T,fn:hostile,fn:parse_list,fn:parse_value" ;;
    esac
}
names="a-num b-segv c-list d-hang e-name f-exit g-hash h-hash i-empty j-abrt k-other l-print m-num n-fork o-list"
features() { grep -F "/$1.txt\"," "$2" | sed 's/.*"features":\[\(.*\)\]}$/\1/' | tr -d '"'; }
run() { # results-file options...
    out=$1
    shift
    "$KPATH" run -q --timeout 1 --results "$out" --harness "$h" "$@" grammars/expr.ebnf \
        "$tmp/in" >/dev/null 2>"$tmp/err" || { st=$?; cat "$tmp/err" >&2; fail "kpath run $*: exit $st"; }
    # Nothing of the harness outlives kpath: servers, children, the '&' sleeper.
    for p in /proc/[0-9]*; do
        case $(readlink "$p/exe" 2>/dev/null) in
        "$tmp"/*) sleep 0.3; [ -e "$p" ] && fail "$*: process ${p#/proc/} outlived kpath" ;;
        esac
    done
}
streams() { # results-file label
    grep -F "in/l-print.txt" "$1" | grep -qF '"stdout":{"size":7,' || fail "$2: print: stdout"
    grep -F "in/l-print.txt" "$1" | grep -qF '"first_line":"warn"' || fail "$2: print: stderr"
    grep -F "in/m-num.txt" "$1" | grep -qF '"stdout":{"size":0,' || fail "$2: the output of print went to the next input"
    grep -F "in/m-num.txt" "$1" | grep -qF '"stderr":{"size":0,' || fail "$2: the stderr of print went to the next input"
}

# A fork per input: the hand values, h-hash without fn:seen_before.
run "$tmp/fork.jsonl" -j 1
for n in $names; do
    got=$(features "$n" "$tmp/fork.jsonl")
    [ "$got" = "$(expect "$n")" ] || fail "fork: $n: $got, expected $(expect "$n")"
done
streams "$tmp/fork.jsonl" fork

# In process, -j 1: the same, but for the second '#' input of one child.
# Its children by hand: a b (SIGSEGV), c d (timeout), e f (exit 3),
# g h i j (SIGABRT), k l m n o: g and h share one.
run "$tmp/ip.jsonl" -j 1 --in-process
for n in $names; do
    got=$(features "$n" "$tmp/ip.jsonl")
    want=$(expect "$n")
    [ "$n" = h-hash ] && want="exit:0,$T,fn:fail,fn:hostile,fn:parse_value,fn:seen_before"
    [ "$got" = "$want" ] || fail "in process: $n: $got, expected $want"
    [ "$n" = h-hash ] || [ "$got" = "$(features "$n" "$tmp/fork.jsonl")" ] ||
        fail "in process: $n differs from fork mode"
done
streams "$tmp/ip.jsonl" "in process"
# The report is the same: the same outcome classes.
for o in 'signal:SIGSEGV' 'signal:SIGABRT' 'timeout' 'exit:3'; do
    [ "$(grep -c "\"$o\"" "$tmp/ip.jsonl")" = "$(grep -c "\"$o\"" "$tmp/fork.jsonl")" ] ||
        fail "in process: the count of $o differs"
done

# A new child after every input: no state kept, the same as a fork per input.
run "$tmp/ip1.jsonl" -j 1 --in-process --in-process-runs 1
for n in $names; do
    [ "$(features "$n" "$tmp/ip1.jsonl")" = "$(features "$n" "$tmp/fork.jsonl")" ] ||
        fail "--in-process-runs 1: $n: $(features "$n" "$tmp/ip1.jsonl")"
done

# -j 2: two children; every input but the '#' ones (which child takes
# which is not fixed) as with a fork per input.
run "$tmp/ip2.jsonl" -j 2 --in-process
for n in $names; do
    case $n in g-hash|h-hash) continue ;; esac
    [ "$(features "$n" "$tmp/ip2.jsonl")" = "$(features "$n" "$tmp/fork.jsonl")" ] ||
        fail "-j 2 in process: $n: $(features "$n" "$tmp/ip2.jsonl")"
done
[ "$(grep -c '"input":' "$tmp/ip2.jsonl")" = 15 ] || fail "-j 2: $(grep -c '"input":' "$tmp/ip2.jsonl") records"
streams "$tmp/ip2.jsonl" "-j 2 in process"

# --in-process-runs 2 on five '#' inputs: children (1 2) (3 4) (5), so
# fn:seen_before at the 2nd and the 4th only.
mkdir "$tmp/hash"
for i in 1 2 3 4 5; do printf '#' >"$tmp/hash/$i.txt"; done
"$KPATH" run -q -j 1 --in-process --in-process-runs 2 --results "$tmp/hash.jsonl" --harness "$h" \
    grammars/expr.ebnf "$tmp/hash" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "hash run"; }
for i in 1 2 3 4 5; do
    want="exit:0,$T,fn:fail,fn:hostile,fn:parse_value"
    case $i in 2|4) want="$want,fn:seen_before" ;; esac
    got=$(features "$i" "$tmp/hash.jsonl")
    [ "$got" = "$want" ] || fail "--in-process-runs 2: input $i: $got, expected $want"
done

# Edges: every guard a child reached is put back after its input, so the
# same edges as with a fork per input, input after input in one child
# (the same list twice: the second reaches them all again).
mkdir "$tmp/e"
for i in a-num c-list e-name k-other m-num o-list; do cp "$tmp/in/$i.txt" "$tmp/e/"; done
cp "$tmp/in/c-list.txt" "$tmp/e/z-list.txt"
for mode in "" --in-process; do
    "$KPATH" run -q -j 1 --harness-edges $mode --results "$tmp/e$mode.jsonl" --harness "$h" \
        grammars/expr.ebnf "$tmp/e" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "edges $mode"; }
done
for i in a-num c-list e-name k-other m-num o-list z-list; do
    got=$(features "$i" "$tmp/e--in-process.jsonl")
    case $got in *edge:parse_value:*) ;; *) fail "edges: $i has no edge of parse_value: $got" ;; esac
    [ "$got" = "$(features "$i" "$tmp/e.jsonl")" ] ||
        fail "edges: $i in process: $got; a fork per input: $(features "$i" "$tmp/e.jsonl")"
done
[ "$(features z-list "$tmp/e--in-process.jsonl")" = "$(features c-list "$tmp/e--in-process.jsonl")" ] ||
    fail "edges: the same input twice in one child differs"

# Usage: --in-process needs --harness, --in-process-runs needs --in-process
# and a count of 1 or more.
"$KPATH" run --in-process grammars/expr.ebnf "$tmp/in" -- /bin/true >/dev/null 2>&1
[ $? = 2 ] || fail "--in-process without --harness is not a usage error"
"$KPATH" run --harness "$h" --in-process-runs 5 grammars/expr.ebnf "$tmp/in" >/dev/null 2>&1
[ $? = 2 ] || fail "--in-process-runs without --in-process is not a usage error"
"$KPATH" run --harness "$h" --in-process --in-process-runs 0 grammars/expr.ebnf "$tmp/in" >/dev/null 2>&1
[ $? = 2 ] || fail "--in-process-runs 0 is not a usage error"
"$KPATH" run --help | grep -q "in-process" || fail "--help does not name --in-process"
exit 0
