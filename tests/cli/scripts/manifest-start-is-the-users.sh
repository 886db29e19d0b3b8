#!/bin/sh
# A manifest names the start rule a user can pass back with --start, so a
# run can be repeated from it.  tests/grammars/formats/EntryFirst.g4 starts
# at stmt, which the rule prepare also uses, so its import wraps it in
# _start := _skip stmt (skip tokens may begin the input); _start is not a
# rule of the user's file and --start _start is refused.  Until manifests
# used grammar_user_start they recorded "_start".  Checked for gen, reduce
# and bonsai: each manifest says "stmt", and gen again with --start stmt
# and the same seed writes the same inputs.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=tests/grammars/formats/EntryFirst.g4
start_of() { grep -o '"start": *"[^"]*"' "$1" | head -1 | sed 's/.*: *"//; s/"$//'; }

"$KPATH" gen -n 3 --seed 7 -o "$tmp/a" $g >/dev/null 2>"$tmp/err" || fail "gen: $(cat "$tmp/err")"
s=$(start_of "$tmp/a/manifest.json")
[ "$s" = stmt ] || fail "gen's manifest says start '$s', expected stmt"
"$KPATH" gen -n 3 --seed 7 --start "$s" -o "$tmp/b" $g >/dev/null 2>"$tmp/err" ||
    fail "gen --start $s: $(cat "$tmp/err")"
for f in "$tmp"/a/*.txt; do
    cmp -s "$f" "$tmp/b/$(basename "$f")" || fail "gen --start $s wrote another $(basename "$f")"
done

"$KPATH" reduce -o "$tmp/r" $g "$tmp/a" >/dev/null 2>"$tmp/err" || fail "reduce: $(cat "$tmp/err")"
s=$(start_of "$tmp/r/manifest.json")
[ "$s" = stmt ] || fail "reduce's manifest says start '$s', expected stmt"

"$KPATH" bonsai -o "$tmp/c" $g >/dev/null 2>"$tmp/err" || fail "bonsai: $(cat "$tmp/err")"
s=$(start_of "$tmp/c/manifest.json")
[ "$s" = stmt ] || fail "bonsai's manifest says start '$s', expected stmt"
exit 0
