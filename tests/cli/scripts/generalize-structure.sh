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
. tests/cli/generalize_structure_lib.sh

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
