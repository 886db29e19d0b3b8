#!/bin/sh
# kpath generalize --structure learns where blanks may stand between tokens
# and which blank characters, against oracles whose languages are known
# exactly (tests/subjects/lang.c):
#   jsonws   jsonlite (see generalize-structure.sh) with [ \t\n]* between
#            any two tokens and at both ends, none inside a token
#            from {"a": [1, "bc", true], "d": {"e": null}}
#   arithws  arith with [ \t]* after any token, none before the first
#            from (1 + 2)*3 and 4 - 5
# The samples have " " at a few places only: the learned grammar must take
# blanks at the other places between tokens, tabs and newlines where the
# language has them, and none where it has not (before an expression,
# inside a number or string, a newline in an expression).  Soundness and
# completeness as in generalize-structure.sh (every input generated from the
# learned grammar is a member; every input generated from the language's
# definition parses).  The goldens come from the definitions above.
. tests/cli/generalize_structure_lib.sh
tab=$(printf '\t')
nl='
'

learn jsonws '{"a": [1, "bc", true], "d": {"e": null}}'
recursive jsonws
members jsonws ' [ ] ' "{$nl}" "$tab[1 ,2,${nl}3]$nl" '{ "k" : "v" , "l" : { } }' '  "x"' \
    "[[${tab}null${tab}]]" '{"a":1}'
non_members jsonws '[1 2]' '[tr ue]' '"a b"' '{"a" "b"}' '[1, ]' '1 1' ' [ '
sound jsonws
complete jsonws 'V := W ("{" W (M ("," W M)*)? "}" | "[" W (E ("," W E)*)? "]" | S | [0-9]+
     | "true" | "null") W;
M := S W ":" V;
E := V;
S := "\"" [a-z]* "\"";
W := [ \t\n]*;'
# the blanks are justified by queries, noted on their rule
grep -q '^#: blanks: a " " at [0-9]* places: accepted structure queries #' "$tmp/jsonws.ebnf" ||
    fail "jsonws: no note for the blanks"

learn arithws '(1 + 2)*3' '4 - 5'
recursive arithws
members arithws '1+2' '1 +  2' "(${tab}3 )${tab}* 4 " '((7))' '10 * 20 - ( 3 )'
non_members arithws ' 1+2' '1 2' '1+2 3' "1 +${nl}2" "${tab}(1)" '12 3+4'
sound arithws
complete arithws 'E := T (("+" | "-") W T)*;
T := F ("*" W F)*;
F := [0-9]+ W | "(" W E ")" W;
W := [ \t]*;'
exit 0
