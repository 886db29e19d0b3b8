#!/bin/sh
# kpath run --harness: a libFuzzer harness (tests/subjects/harness_list.c)
# built by kpath with clang and run by its fork server.  The functions each
# input reaches, worked out by hand from the source (every input of one
# byte or more runs LLVMFuzzerTestOneInput and hostile; then parse_value
# unless hostile ended the run; a digit parse_number, a letter parse_name,
# '[' parse_list, anything else fail), and checked against gcov's view of
# the same parser built as a program of its own (make subjects: the same
# functions plus main).  Crashes give their signal, '@' is killed by the
# timeout, '%' exits 3, '$' writes to stdout and stderr (kept as a run's
# streams), '&' forks a child that writes to the terminal and sleeps: the
# run ends at once and nothing of it outlives kpath.  Skipped, saying so,
# without clang (make deps installs it).
. tests/cli/harness_setup.sh
mkdir "$tmp/in"
put() { printf "$2" >"$tmp/in/$1.txt"; }
put num '12'
put list '[ab,[3]]'
put name 'ab'
put empty ''
put other '+'
put segv '!'
put abrt '~'
put exit '%%'
put hang '@'
put print '$'
put fork '&'
"$KPATH" run -q -j 2 --timeout 1 --results "$tmp/r.jsonl" --harness "$h" grammars/expr.ebnf \
    "$tmp/in" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "exit status $?"; }
# The record's features, sorted (the outcome among them).
features() { grep -F "/$1.txt\"," "$2" | sed 's/.*"features":\[\(.*\)\]}$/\1/' | tr -d '"'; }
check() {
    got=$(features "$1" "$tmp/r.jsonl")
    [ "$got" = "$2" ] || fail "input $1: features $got, expected $2"
}
T=fn:LLVMFuzzerTestOneInput
check num "exit:0,$T,fn:hostile,fn:parse_number,fn:parse_value"
check list "exit:0,$T,fn:hostile,fn:parse_list,fn:parse_name,fn:parse_number,fn:parse_value"
check name "exit:0,$T,fn:hostile,fn:parse_name,fn:parse_value"
check empty "exit:0,$T,fn:fail,fn:parse_value"
check other "exit:0,$T,fn:fail,fn:hostile,fn:parse_value"
check segv "$T,fn:hostile,signal:SIGSEGV"
check abrt "$T,fn:hostile,signal:SIGABRT"
check exit "exit:3,$T,fn:hostile"
check hang "$T,fn:hostile,timeout"
check print "exit:0,$T,fn:fail,fn:hostile,fn:parse_value"
check fork "exit:0,$T,fn:fail,fn:hostile,fn:parse_value"
grep -qF '"command":["--harness","tests/subjects/harness_list.c"]' "$tmp/r.jsonl" ||
    fail "header does not name the harness: $(head -1 "$tmp/r.jsonl")"
grep -qF '"collect":["outcome","harness"]' "$tmp/r.jsonl" || fail "header does not name harness"
# The program's streams are a run's streams: "dollar\n" (7 bytes), "warn\n".
grep -F "in/print.txt" "$tmp/r.jsonl" | grep -qF '"stdout":{"size":7,' || fail "print: stdout"
grep -F "in/print.txt" "$tmp/r.jsonl" | grep -qF '"first_line":"warn"' || fail "print: stderr"
grep -F "in/num.txt" "$tmp/r.jsonl" | grep -qF '"stdout":{"size":0,' || fail "num: stdout not empty"
# Nothing of the harness outlives kpath (the forked sleeper, the servers).
sleep 0.2
for p in /proc/[0-9]*; do
    case $(readlink "$p/exe" 2>/dev/null) in "$tmp"/*) fail "process ${p#/proc/} outlived kpath" ;; esac
done

# On a terminal: the child's write to /dev/tty never reaches it (its own
# session has no controlling terminal).
if command -v script >/dev/null 2>&1; then
    script -qc "\"$KPATH\" run -q --results \"$tmp/t.jsonl\" --harness $h grammars/expr.ebnf \"$tmp/in/fork.txt\"" \
        "$tmp/typescript" >/dev/null 2>&1 </dev/null
    grep -q "^kpath run: 1 run recorded\|1 run recorded" "$tmp/typescript" || fail "no run on a terminal: $(cat "$tmp/typescript")"
    grep -v '^Script started' "$tmp/typescript" | grep -q "harness child on the terminal" &&
        fail "the harness's child wrote to the terminal"
fi

# gcov's view of the same parser: the same functions, plus main (which
# calls LLVMFuzzerTestOneInput there).
standalone=$(dirname "$KPATH")/tests/subjects/harness_list
[ -x "$standalone" ] || fail "no $standalone (make subjects)"
mkdir "$tmp/g"
for i in num list name empty other; do cp "$tmp/in/$i.txt" "$tmp/g/"; done
"$KPATH" run -q --gcov "$(dirname "$standalone")" --results "$tmp/g.jsonl" grammars/expr.ebnf \
    "$tmp/g" -- "$standalone" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "gcov run: $?"; }
"$KPATH" run -q --results "$tmp/h.jsonl" --harness "$h" grammars/expr.ebnf "$tmp/g" \
    >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "harness run: $?"; }
for i in num list name empty other; do
    want=$(features "$i" "$tmp/g.jsonl" | sed 's/,fn:main//')
    got=$(features "$i" "$tmp/h.jsonl")
    [ -n "$got" ] && [ "$got" = "$want" ] || fail "$i: harness $got, gcov $want"
done
# Built once: one harness in the cache, nothing half-built.
[ "$(ls "$tmp/cache" | wc -l)" = 1 ] || fail "cache: $(ls "$tmp/cache")"

# A shared library built with coverage by the user: the same functions.
clang -O1 -fno-inline -fPIC -shared -fsanitize-coverage=func,trace-pc-guard,pc-table "$h" \
    -o "$tmp/libh.so" 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "clang -shared"; }
"$KPATH" run -q --results "$tmp/so.jsonl" --harness "$tmp/libh.so" grammars/expr.ebnf "$tmp/g" \
    >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "FILE.so run: $?"; }
for i in num list name empty other; do
    [ "$(features "$i" "$tmp/so.jsonl")" = "$(features "$i" "$tmp/h.jsonl")" ] ||
        fail "$i: FILE.so $(features "$i" "$tmp/so.jsonl"), FILE.c $(features "$i" "$tmp/h.jsonl")"
done
# Edges: the same functions, and edges inside parse_number for a number.
"$KPATH" run -q --harness-edges --results "$tmp/e.jsonl" --harness "$h" grammars/expr.ebnf \
    "$tmp/g/num.txt" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "edges: $?"; }
[ "$(features num "$tmp/e.jsonl" | tr ',' '\n' | grep -v '^edge:' | paste -sd, -)" = \
  "$(features num "$tmp/h.jsonl")" ] || fail "edges: $(features num "$tmp/e.jsonl")"
features num "$tmp/e.jsonl" | tr ',' '\n' | grep -q '^edge:parse_number:[0-9]' ||
    fail "edges: none in parse_number: $(features num "$tmp/e.jsonl")"

# Prefix and suffix around every input, with escapes: "1,2" becomes a list;
# an empty input with the prefix "\x31" is the number 1.
printf '1,2' >"$tmp/g/pair.txt"
"$KPATH" run -q --results "$tmp/p.jsonl" --harness "$h" --harness-prefix '[' --harness-suffix ']' \
    grammars/expr.ebnf "$tmp/g/pair.txt" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "prefix"; }
got=$(grep -F pair.txt "$tmp/p.jsonl" | sed 's/.*"features":\[\(.*\)\]}$/\1/' | tr -d '"')
[ "$got" = "exit:0,$T,fn:hostile,fn:parse_list,fn:parse_number,fn:parse_value" ] || fail "pair: $got"
"$KPATH" run -q --results "$tmp/q.jsonl" --harness "$h" --harness-prefix '\x31' \
    grammars/expr.ebnf "$tmp/in/empty.txt" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "escape"; }
got=$(grep -F empty.txt "$tmp/q.jsonl" | sed 's/.*"features":\[\(.*\)\]}$/\1/' | tr -d '"')
[ "$got" = "exit:0,$T,fn:hostile,fn:parse_number,fn:parse_value" ] || fail "\\x31: $got"

# target --run with the same options: inputs made for the rule of
# fn:parse_list (they contain "[") all reach it when the harness runs them.
printf 'Value := Number | Name | List ;\nList := "[" Value ("," Value)* "]" ;\nNumber := [0-9]+ ;\nName := [a-z]+ ;\n' >"$tmp/list.ebnf"
mkdir "$tmp/l"
for i in 12 ab '[1]' '[a,2]' 7 '[x]'; do printf '%s' "$i" >"$tmp/l/$(printf '%s' "$i" | od -An -tx1 | tr -d ' \n').txt"; done
"$KPATH" run -q --results "$tmp/l.jsonl" --harness "$h" "$tmp/list.ebnf" "$tmp/l" >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "list run"; }
"$KPATH" target -k 1 -n 5 --feature fn:parse_list "$tmp/list.ebnf" "$tmp/l.jsonl" --run --harness "$h" \
    >"$tmp/targeted" 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "target --run --harness: $?"; }
grep -q '^  targeted     5/5 ' "$tmp/err" || fail "target --run --harness: $(cat "$tmp/err")"
[ "$(grep -c '\[' "$tmp/targeted")" = 5 ] || fail "targeted inputs without [: $(cat "$tmp/targeted")"
"$KPATH" target -k 1 --feature fn:parse_list "$tmp/list.ebnf" "$tmp/l.jsonl" --harness "$h" \
    >/dev/null 2>&1
[ $? = 2 ] || fail "target --harness without --run is not a usage error"

# Usage: the harness is the program; its options need it; escapes are checked.
"$KPATH" run --harness "$h" grammars/expr.ebnf "$tmp/g" -- /bin/true >/dev/null 2>&1
[ $? = 2 ] || fail "--harness with -- COMMAND is not a usage error"
"$KPATH" run --harness-prefix x grammars/expr.ebnf "$tmp/g" -- /bin/true >/dev/null 2>&1
[ $? = 2 ] || fail "--harness-prefix without --harness is not a usage error"
"$KPATH" run --harness "$h" --harness-prefix '\q' grammars/expr.ebnf "$tmp/g" >/dev/null 2>&1
[ $? = 2 ] || fail "a bad escape is not a usage error"
# A harness that does not compile: clang's error, exit 2, no results file.
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return nope; }\n' >"$tmp/bad.c"
"$KPATH" run --results "$tmp/bad.jsonl" --harness "$tmp/bad.c" grammars/expr.ebnf "$tmp/g" \
    >/dev/null 2>"$tmp/err"
[ $? = 2 ] || fail "a harness that does not build: not exit 2"
grep -q "could not build the harness" "$tmp/err" || fail "no build error: $(cat "$tmp/err")"
grep -q "nope" "$tmp/err" || fail "clang's message not shown: $(cat "$tmp/err")"
[ ! -e "$tmp/bad.jsonl" ] || fail "a results file after a failed build"
exit 0
