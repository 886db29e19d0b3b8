#!/bin/sh
# kpath generalize --structure learns recursion and repetition from one or
# two samples, against oracles whose languages are known exactly
# (tests/subjects/lang.c):
#   nested  L = "[" (L ("," L)*)? "]" | [0-9]+        from [1,[2]]
#   arith   E = T (("+" | "-") T)*, T = F ("*" F)*,
#           F = [0-9]+ | "(" E ")"                     from (1+2)*3 and 4-5
#   dotted  [a-z]+ ("." [a-z]+)*                       from ab.cd.ef
#   jsonlite V = "{" (S ":" V ("," S ":" V)*)? "}" | "[" (V ("," V)*)? "]"
#              | S | [0-9]+ | "true" | "null", S = "\"" [a-z]* "\""
#                                       from {"a":[1,"bc",true],"d":{"e":null}}
#           (a string is a value, but a key is a string and no value)
#   signed  S (("+" | "*") S)*, S = "+"* [0-9]+       from 1+2*3
#           ("+" and "*" replace each other between numbers, but "+2" is
#           a value and "*2" none: sound, recursive, the signs not learned)
# For each: the learned grammar is recursive (a rule refers to itself) and
# parses nestings and lengths the samples never had; it parses none of a
# few non-members; every input generated from it (seeded) is accepted by the
# oracle (soundness 100%), and every input generated from the language's
# definition, written here as a grammar, parses (completeness 100%).  The
# goldens come from the definitions above, not from kpath's output.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
lang=$(dirname "$KPATH")/tests/subjects/lang
[ -x "$lang" ] || fail "no $lang (make subjects)"
printf 'unused := "x";\n' >"$tmp/unused.ebnf"
N=60

learn() { # mode sample... -> $tmp/MODE.ebnf, log $tmp/MODE.out
    mode=$1
    shift
    i=0
    for s in "$@"; do
        i=$((i + 1))
        printf '%s' "$s" >"$tmp/$mode-$i.txt"
    done
    "$KPATH" generalize --structure "$tmp/unused.ebnf" "$tmp/$mode"-*.txt -o "$tmp/$mode.ebnf" \
        -- "$lang" "$mode" >"$tmp/$mode.out" 2>"$tmp/err" ||
        { cat "$tmp/err"; fail "$mode: exit status"; }
    "$KPATH" check "$tmp/$mode.ebnf" >/dev/null 2>&1 || fail "$mode: the grammar does not load"
}
parses() { # mode text
    printf '%s' "$2" >"$tmp/in.txt"
    "$KPATH" parse "$tmp/$1.ebnf" "$tmp/in.txt" >/dev/null 2>&1
}
members() { # mode text...: each parses
    m=$1
    shift
    for t in "$@"; do
        printf '%s' "$t" | "$lang" "$m" || fail "$m: the test's own member $t is not in the language"
        parses "$m" "$t" || fail "$m: the learned grammar does not parse $t"
    done
}
non_members() { # mode text...: none parses
    m=$1
    shift
    for t in "$@"; do
        printf '%s' "$t" | "$lang" "$m" && fail "$m: the test's own non-member $t is in the language"
        parses "$m" "$t" && fail "$m: the learned grammar parses the non-member $t"
    done
    return 0
}
recursive() { # mode: some rule refers to itself
    grep -v '^#' "$tmp/$1.ebnf" | awk '$2 == ":=" { name = $1 } { for (i = 2; i <= NF; i++)
        { w = $i; gsub(/[^A-Za-z0-9_]/, "", w); if (w == name) found = 1 } }
        END { exit !found }' || fail "$1: the learned grammar is not recursive"
}
sound() { # mode: N inputs generated from the learned grammar, all in the language
    "$KPATH" gen --strategy random -n $N --seed 1 -o "$tmp/$1-gen" "$tmp/$1.ebnf" >/dev/null 2>&1 ||
        fail "$1: gen"
    n=0
    for f in "$tmp/$1-gen"/*.txt; do
        n=$((n + 1))
        "$lang" "$1" <"$f" || fail "$1: generated $(cat "$f") is not in the language"
    done
    [ $n -gt 0 ] || fail "$1: nothing generated"
}
complete() { # mode reference: N inputs generated from the definition all parse
    printf '%s\n' "$2" >"$tmp/$1-ref.ebnf"
    "$KPATH" gen --strategy random -n $N --seed 2 -o "$tmp/$1-ref" "$tmp/$1-ref.ebnf" \
        >/dev/null 2>&1 || fail "$1: gen from the definition"
    for f in "$tmp/$1-ref"/*.txt; do
        "$lang" "$1" <"$f" || fail "$1: the definition's $(cat "$f") is not in the language"
        "$KPATH" parse "$tmp/$1.ebnf" "$f" >/dev/null 2>&1 ||
            fail "$1: the learned grammar does not parse $(cat "$f")"
    done
}

learn nested '[1,[2]]'
recursive nested
members nested '[[[[1]]],[2,3,4]]' '[]' '[[],[[]]]' '7' '[10,200,3000]' '[[1,2],[3,[4,[5]]]]'
non_members nested '[1,]' '[[1]' '1,2' '[]]' '[,1]' '[1 2]' '[12' ''
sound nested
complete nested 'L := "[" (L ("," L)*)? "]" | [0-9]+;'
# the merges name their queries; the summary counts the structure's
grep -q '^#: recursion: "\[2\]" ([^)]*) replaces "1" and its class in other contexts: accepted structure queries #' \
    "$tmp/nested.ebnf" || fail "nested: no note for the recursion through [2]"
grep -q '^[0-9]* queries ([0-9]* accepted, [0-9]* for structure: ' "$tmp/nested.out" ||
    fail "nested: summary: $(tail -1 "$tmp/nested.out")"
# the same run again learns the same grammar and log
"$KPATH" generalize --structure "$tmp/unused.ebnf" "$tmp/nested-1.txt" -o "$tmp/again.ebnf" \
    -- "$lang" nested >"$tmp/again.out" 2>/dev/null || fail "nested: second run"
cmp -s "$tmp/nested.ebnf" "$tmp/again.ebnf" || fail "nested: the grammar differs from run to run"
cmp -s "$tmp/nested.out" "$tmp/again.out" || fail "nested: the log differs from run to run"
# a query limit stops it with a grammar that still holds the sample
"$KPATH" generalize --structure --max-queries 5 "$tmp/unused.ebnf" "$tmp/nested-1.txt" \
    -o "$tmp/few.ebnf" -- "$lang" nested >"$tmp/few.out" 2>/dev/null || fail "nested: --max-queries 5"
"$KPATH" parse "$tmp/few.ebnf" "$tmp/nested-1.txt" >/dev/null 2>&1 ||
    fail "nested: the grammar learned within 5 queries does not parse the sample"
q=$(tail -1 "$tmp/few.out" | awk '{ print $1 }')
[ "$q" -le 5 ] || fail "nested: $q queries asked with --max-queries 5"

learn arith '(1+2)*3' '4-5'
recursive arith
members arith '((1))*(2+3*4)+5' '7' '1-2-3' '(((((9)))))' '10*20*30+(4-5)'
non_members arith '1+' '()' '(1' '1)' '+1' '1**2' '(1)(2)' '1 2'
sound arith
complete arith 'E := T (("+" | "-") T)*;
T := F ("*" F)*;
F := [0-9]+ | "(" E ")";'

learn dotted 'ab.cd.ef'
recursive dotted
members dotted 'a.b.c.d.e.f.g' 'x' 'www.example.com' 'kpath'
non_members dotted 'a..b' '.a' 'a.' 'A.b' 'a.1' ''
sound dotted
complete dotted 'H := [a-z]+ ("." [a-z]+)*;'

learn jsonlite '{"a":[1,"bc",true],"d":{"e":null}}'
recursive jsonlite
members jsonlite '[]' '{}' '"x"' '""' '[1,2,3]' '["x",1]' '[["x"],{"y":[2,3]}]' '{"k":"v","l":{}}' \
    '[[[null]]]' '{"a":{"b":{"c":true}}}'
non_members jsonlite '{1:2}' '{"a"}' '[1,]' '{"a":1,}' '"a' '[true false]' '{"a":"b":1}' '' \
    '{"a":[1}' '{[1]:2}' '{"x":1' 'nul'
sound jsonlite
complete jsonlite 'V := "{" (S ":" V ("," S ":" V)*)? "}" | "[" (V ("," V)*)? "]" | S | [0-9]+
     | "true" | "null";
S := "\"" [a-z]* "\"";'

learn signed '1+2*3'
recursive signed
members signed '1*2+3*4' '12' '1+2+3*4*5' '7*8'
non_members signed '*1' '1**2' '1+*2' '1*' '+' '1 2'
sound signed
exit 0
