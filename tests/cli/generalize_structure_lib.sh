# Sourced by the tests/cli/scripts/generalize-structure*.sh scripts (run
# from the repository root): the checks each makes of a grammar that
# `kpath generalize --structure` learns against an oracle whose language is
# known exactly (tests/subjects/lang MODE).  Sets fail, $tmp (removed on
# exit), $lang and N, and defines learn (LEARN_OPTIONS adds options),
# parses, members, non_members, recursive, sound and complete.
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
    "$KPATH" generalize --structure ${LEARN_OPTIONS:-} "$tmp/unused.ebnf" "$tmp/$mode"-*.txt -o "$tmp/$mode.ebnf" \
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
