#!/bin/sh
# DIR arguments: every regular file below, at any depth, in path order
# (component by component), skipping hidden entries and manifest.json; links
# to directories are not followed (with a warning); a directory without
# samples (an argument) is a warning, and no samples at all an error (status 2).
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
d=$tmp/samples
mkdir -p "$d/a/deep/er" "$d/a-b" "$d/.hidden" "$d/empty"
printf 'x' >"$d/a/deep/er/1"
printf 'y' >"$d/a/2"
printf 'z' >"$d/a-b/3"
printf '1' >"$d/b"
printf '(' >"$d/.hidden/bad"
printf '(' >"$d/.also-hidden"
printf '{}' >"$d/a/manifest.json"
ln -s "$d/a" "$d/link-to-dir"
ln -s "$d/b" "$d/link-to-file"

"$KPATH" coverage -k 1 grammars/expr.ebnf "$d/" >"$tmp/out" 2>"$tmp/err" || fail "status $?: $(cat "$tmp/err")"
cut -d: -f1 "$tmp/out" >"$tmp/names"
cat >"$tmp/want" <<NAMES
$d/a/2
$d/a/deep/er/1
$d/a-b/3
$d/b
$d/link-to-file
total (5 files)
expansion coverage
NAMES
cmp -s "$tmp/names" "$tmp/want" || fail "files or order: $(diff "$tmp/want" "$tmp/names")"
grep -qxF "$d/link-to-dir: warning: symbolic link to a directory, not followed" "$tmp/err" ||
    fail "no warning for the link to a directory: $(cat "$tmp/err")"

# Nothing to measure at all: an error.
"$KPATH" coverage grammars/expr.ebnf "$d/empty" >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] || fail "no samples must exit with status 2"
grep -qxF "kpath coverage: error: no sample files to measure" "$tmp/err" || fail "stderr: $(cat "$tmp/err")"
grep -qxF "$d/empty: warning: no sample files in this directory" "$tmp/err" || fail "no warning for the empty directory: $(cat "$tmp/err")"

# Deep nesting is walked without recursion.
p=$d/deep
i=0
while [ $i -lt 200 ]; do p=$p/n; i=$((i + 1)); done
mkdir -p "$p" && printf '7' >"$p/seven"
"$KPATH" coverage -k 1 grammars/expr.ebnf "$d/deep" >"$tmp/out" 2>"$tmp/err" || fail "deep: status $?"
grep -q '^total (1 file)' "$tmp/out" || fail "deep: $(cat "$tmp/out")"
exit 0
