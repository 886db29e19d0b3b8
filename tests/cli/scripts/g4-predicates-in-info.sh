#!/bin/sh
# kpath info marks a grammar whose semantic predicates and actions kpath
# does not run (issue 31): their count and places (worked out by hand from
# tests/grammars/formats/Predicates.g4), in the text and in --json; a
# grammar without any says nothing of them and counts 0 in --json.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
g=tests/grammars/formats/Predicates.g4
out=$("$KPATH" info -k 1 $g 2>/dev/null) || fail "info failed"
want='code not run: 2 semantic predicates, 1 action (predicates at 5:10, 7:14; actions at 5:32); kpath may accept inputs they would reject'
printf '%s\n' "$out" | grep -qxF "$want" || fail "info says: $out"
"$KPATH" info -k 1 --json $g 2>/dev/null | grep -qF '"predicates": 2, "actions": 1,' ||
    fail "--json: $("$KPATH" info -k 1 --json $g 2>&1)"
out=$("$KPATH" info -k 1 tests/grammars/formats/EntryFirst.g4 2>/dev/null) || fail "info EntryFirst failed"
printf '%s\n' "$out" | grep -q 'code not run' && fail "EntryFirst marked: $out"
exit 0
