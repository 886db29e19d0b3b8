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
