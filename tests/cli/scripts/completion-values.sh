#!/bin/sh
# The bash completion completes values, not only names (#36.7): --strategy,
# --closeoff and --format from the tables that read them, --lesson from the
# lessons next to kpath, and the rule names after --start of every grammar
# format: <angle> names and names with dots and dashes (ebnf, fandango),
# and .g4 rules, a `fragment` and a rule whose ':' is on the next line too.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v bash >/dev/null 2>&1 || exit 0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$KPATH" --completion bash >"$tmp/kpath.bash" || fail "--completion bash"
bin=$(cd "$(dirname "$KPATH")" && pwd)
# complete WORDS...: what the bash completion offers for the last word, one
# a line, sorted (kpath on PATH, as where completion is used)
complete_words() {
    PATH="$bin:$PATH" bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _kpath; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$tmp/kpath.bash" "$@" | sort | tr '\n' ' '
}
want() { # want "OFFERED" WORDS...
    w=$1; shift
    got=$(complete_words "$@")
    [ "$got" = "$w" ] || fail "kpath $*: offered '$got', expected '$w'"
}
want 'coverage kpath prob random ' gen --strategy ''
want 'random ' gen --closeoff r
want 'fandango fuzzingbook ' info --format f
want 'g4 ' info --format g
# lessons/*.lesson of the sources (kpath's build directory is one below)
lessons=$(cd lessons && ls ./*.lesson | sed 's|^\./||; s|\.lesson$||' | sort | tr '\n' ' ')
[ -n "$lessons" ] || fail "no lessons"
want "$lessons" --lesson ''
want 'paper probs ' --lesson p
# rule names: tests/grammars/ok/names-and-defines.ebnf defines <start>,
# list.item, item-2, _under and <x+y>, with ::=, := and =
want '<start> <x+y> _under item-2 list.item ' info tests/grammars/ok/names-and-defines.ebnf --start ''
want '<x+y> ' info tests/grammars/ok/names-and-defines.ebnf --start '<x'
# a .g4: words, WORD and the fragment Letter, whose ':' is on its next line
want 'Letter WORD words ' info tests/grammars/formats/Surrogates.g4 --start ''
want 'atom calc stmt ' info tests/grammars/formats/CalcParser.g4 --start ''
# fandango's <angle> rules (<digit> is used, not defined: fandango's own)
want '<expr> <num> <start> <term> ' info tests/grammars/formats/calc.fan --start ''
exit 0
