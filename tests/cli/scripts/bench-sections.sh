#!/bin/sh
# make bench BENCH_SECTIONS=...: the scripts of the bench are sections of
# their own (formats, calc-behaviour, behaviour) and run only when named or
# when BENCH_SECTIONS is empty; bench.c is given only its own sections and
# runs only when one of them is named (or none at all).  Read from what
# `make -n` would run: the commands of a section left out start with ':'.
set -u
command -v make >/dev/null 2>&1 || { echo "skipped: no make"; exit 0; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
# the commands that would run, with their first words: "bench ARGS" or a
# script's name
runs() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -s bench O="$tmp/o" BENCH_SECTIONS="$1" 2>/dev/null |
        awk '/^KPATH=.*\/bench [^ ]*/ { sub(/^KPATH=[^ ]* [^ ]*\/bench [^ ]*/, "bench"); sub(/ +$/, ""); print; next }
             /^KPATH=.*tests\/bench\/[a-z_]*\.sh/ { sub(/.*tests\/bench\//, ""); print }
             /^\[ -n "" \] \|\| .*tests\/bench\/[a-z_]*\.sh/ { sub(/.*tests\/bench\//, ""); print }'
}
check() { # BENCH_SECTIONS, then the expected commands, one a line
    sections=$1
    shift
    printf '%s\n' "$@" >"$tmp/want"
    runs "$sections" >"$tmp/got"
    cmp -s "$tmp/want" "$tmp/got" || fail "BENCH_SECTIONS='$sections': $(diff "$tmp/want" "$tmp/got")"
}
check run "bench run"
check parsing "bench parsing"
check "run behaviour" "bench run" behaviour.sh
check formats formats_check.sh
check calc-behaviour calc_behaviour.sh
check "behaviour calc-behaviour" calc_behaviour.sh behaviour.sh
check "" "bench" generalize.sh generalize_oracles.sh formats_check.sh calc_behaviour.sh \
    behaviour.sh antlr_check.sh
exit 0
