#!/bin/sh
# An ANTLR grammar whose first parser rule is a helper: the start rule is the
# first parser rule that names EOF (tests/grammars/formats/EntryLater.g4), so
# a version parses and a lone tag does not; --start still chooses any rule;
# a grammar without EOF keeps its first parser rule (CalcParser.g4's calc
# is both).

set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=tests/grammars/formats/EntryLater.g4

"$KPATH" info $g >"$tmp/out" 2>"$tmp/err" || fail "info: exit status $?: $(cat "$tmp/err")"
grep -qx 'start rule: version' "$tmp/out" || fail "info: $(cat "$tmp/out")"
# tag, version and the tokens they use; versions is unreachable.
grep -qx 'rules: 6 (1 unreachable)' "$tmp/out" || fail "info: $(cat "$tmp/out")"
grep -q "rule 'versions' is unreachable from the start rule 'version'" "$tmp/err" ||
    fail "no unreachable warning for versions: $(cat "$tmp/err")"

printf '1.2-beta' >"$tmp/s"
"$KPATH" parse $g "$tmp/s" >/dev/null 2>"$tmp/err" || fail "'1.2-beta' rejected: $(cat "$tmp/err")"
printf 'beta' >"$tmp/s"
if "$KPATH" parse $g "$tmp/s" >/dev/null 2>"$tmp/err"; then fail "'beta' accepted"; fi
grep -q "^$tmp/s:1:1: error" "$tmp/err" || fail "'beta': $(cat "$tmp/err")"

"$KPATH" info --start tag $g >"$tmp/out" 2>/dev/null || fail "info --start tag: exit status $?"
grep -qx 'start rule: tag' "$tmp/out" || fail "--start tag: $(cat "$tmp/out")"

exit 0
