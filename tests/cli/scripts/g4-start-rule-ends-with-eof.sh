#!/bin/sh
# The start rule of an ANTLR grammar without --start: the first parser rule
# when it names EOF (EntryFirst.g4's stmt, used by another rule, before an
# unused hint ending with EOF); else the first parser rule that names EOF
# and that no other rule uses (EntryLater.g4: not the helper tag before it,
# nor end_, which names EOF but version uses); else the first parser rule.

set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=tests/grammars/formats/EntryLater.g4

"$KPATH" info $g >"$tmp/out" 2>"$tmp/err" || fail "info: exit status $?: $(cat "$tmp/err")"
grep -qx 'start rule: version' "$tmp/out" || fail "info: $(cat "$tmp/out")"
# tag, end_, version and the tokens they use; tags is unreachable.
grep -qx 'rules: 7 (1 unreachable)' "$tmp/out" || fail "info: $(cat "$tmp/out")"
grep -q "rule 'tags' is unreachable from the start rule 'version'" "$tmp/err" ||
    fail "no unreachable warning for tags: $(cat "$tmp/err")"

printf '1.2-beta' >"$tmp/s"
"$KPATH" parse $g "$tmp/s" >/dev/null 2>"$tmp/err" || fail "'1.2-beta' rejected: $(cat "$tmp/err")"
printf 'beta' >"$tmp/s"
if "$KPATH" parse $g "$tmp/s" >/dev/null 2>"$tmp/err"; then fail "'beta' accepted"; fi
grep -q "^$tmp/s:1:1: error" "$tmp/err" || fail "'beta': $(cat "$tmp/err")"

"$KPATH" info --start tag $g >"$tmp/out" 2>/dev/null || fail "info --start tag: exit status $?"
grep -qx 'start rule: tag' "$tmp/out" || fail "--start tag: $(cat "$tmp/out")"

# The first rule ends with EOF: it is the start (behind _start, as it is
# used by prepare), not the later hint; prepare and hint are unreachable.
g=tests/grammars/formats/EntryFirst.g4
printf 'run go' >"$tmp/s"
"$KPATH" parse $g "$tmp/s" >/dev/null 2>"$tmp/err" || fail "'run go' rejected: $(cat "$tmp/err")"
printf 'go' >"$tmp/s"
if "$KPATH" parse $g "$tmp/s" >/dev/null 2>"$tmp/err"; then fail "'go' accepted (hint chosen)"; fi
"$KPATH" info $g 2>"$tmp/err" | grep -q "^rules: .*2 unreachable" ||
    fail "EntryFirst: $("$KPATH" info $g 2>&1)"
# said once for both (import_antlr collapses the unreachable warnings)
grep -q "2 rules are unreachable from the start rule 'stmt' .*: 'prepare', 'hint'$" "$tmp/err" ||
    fail "EntryFirst: $(cat "$tmp/err")"

exit 0
