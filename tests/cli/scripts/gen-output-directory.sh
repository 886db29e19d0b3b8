#!/bin/sh
# -o DIR: one file per input, 0001.txt ..., and manifest.json (valid JSON,
# every file listed with its size); a non-empty DIR is refused without
# --force; --force replaces the suite and removes only stale numbered cases;
# no temporary file is ever left behind.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
dir=$tmp/deep/er/suite

no_hidden_files() {
    hidden=$(ls -A "$1" | grep '^\.' || true)
    [ -z "$hidden" ] || fail "temporary or hidden files left in $1: $hidden"
}

# check_manifest DIR SUFFIX COUNT: the files are exactly 0001SUFFIX ..
# COUNT, and manifest.json lists each with its size in bytes.
check_manifest() {
    d=$1 suffix=$2 count=$3
    m=$d/manifest.json
    [ -f "$m" ] || fail "no manifest.json in $d"
    if command -v python3 >/dev/null 2>&1; then
        python3 -m json.tool "$m" >/dev/null || fail "$m is not valid JSON"
    else
        echo "note: python3 not found; not validating manifest.json as JSON" >&2
    fi
    i=1 want=""
    while [ "$i" -le "$count" ]; do
        want="$want $(printf '%04d' "$i")$suffix"
        i=$((i + 1))
    done
    got=$(cd "$d" && ls | grep -v '^manifest\.json$' | grep -v '^notes' | tr '\n' ' ')
    [ " $got" = "$want " ] || fail "files in $d: '$got', expected '$want'"
    [ "$(grep -c '"name": ' "$m")" -eq "$count" ] || fail "manifest lists $(grep -c '"name": ' "$m") files, not $count"
    for name in $want; do
        size=$(wc -c <"$d/$name" | tr -d ' ')
        grep -qF "{\"name\": \"$name\", \"size\": $size, " "$m" ||
            fail "manifest does not list $name with size $size"
    done
}

# A fresh suite in a directory that does not exist yet (parents neither).
"$KPATH" cover -k 3 -o "$dir" grammars/config.ebnf >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "cover -o: exit status $?"; }
[ -s "$tmp/out" ] && fail "cover -o printed inputs on stdout"
grep -qx "wrote 24 input files and manifest.json to $dir" "$tmp/err" || fail "no 'wrote' line"
check_manifest "$dir" .txt 24
no_hidden_files "$dir"
# The manifest names the run.
for field in '"tool": "kpath"' '"command": "cover"' '"strategy": "kpath"' '"close_off": "greedy"' \
             '"k": 3' '"max_depth": 16' '"seed": 1' '"start": "start"' '"path": "grammars/config.ebnf"'; do
    grep -qF "$field" "$dir/manifest.json" || fail "manifest lacks $field"
done
if command -v sha256sum >/dev/null 2>&1; then
    sum=$(sha256sum grammars/config.ebnf | cut -d' ' -f1)
    grep -qF "\"sha256\": \"$sum\"" "$dir/manifest.json" || fail "manifest: wrong sha256 of the grammar"
fi
# Every file is one input of the plain run, and all of them are there.
"$KPATH" cover -k 3 grammars/config.ebnf 2>/dev/null | sort >"$tmp/plain"
for f in "$dir"/0*.txt; do cat "$f"; echo; done | sort >"$tmp/files"
cmp -s "$tmp/plain" "$tmp/files" || fail "the files are not the inputs of the run"

# Not empty: refused with status 2 and a clear message; nothing changes.
echo "keep me" >"$dir/notes.txt"
ls -l --time-style=full-iso "$dir" >"$tmp/before"
cksum "$dir"/* >>"$tmp/before"
"$KPATH" gen -k 1 -o "$dir" grammars/config.ebnf >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 2 ] || fail "non-empty directory without --force: exit status $status, expected 2"
grep -qxF "kpath gen: error: $dir is not empty (use --force to replace its test cases)" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "non-empty directory: message"; }
[ -s "$tmp/out" ] && fail "refused run printed inputs"
ls -l --time-style=full-iso "$dir" >"$tmp/after"
cksum "$dir"/* >>"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" || fail "the refused run changed the directory"

# --force with a smaller suite (-n 5 of the 24 needed): 0001..0005
# replaced, 0006..0024 removed, notes.txt and other names kept.
echo "other" >"$dir/0001.json"
echo "old" >"$dir/001.txt"
"$KPATH" gen -k 3 -n 5 -o "$dir" --force grammars/config.ebnf >"$tmp/out" 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "--force: exit status $?"; }
grep -q '^inputs: 5,' "$tmp/err" || fail "-n 5: expected 5 inputs"
# Nothing is out of depth here, so what the -n limit left on the agenda is
# exactly what the trees leave uncovered: 42 minus the covered 3-paths.
covered=$(sed -n 's|^  k=3: \([0-9]*\)/42 .*|\1|p' "$tmp/err")
[ -n "$covered" ] && [ "$covered" -lt 42 ] || { cat "$tmp/err" >&2; fail "-n 5: no k=3 line"; }
grep -qx "  $((42 - covered)) left on the agenda: -n 5 stopped generation early" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "-n 5: the summary should say how many 3-paths are left"; }
[ "$(cat "$dir/0001.json")" = other ] || fail "--force touched 0001.json"
[ "$(cat "$dir/001.txt")" = old ] || fail "--force touched 001.txt (three digits: not a case)"
rm "$dir/0001.json" "$dir/001.txt"
check_manifest "$dir" .txt 5
[ "$(cat "$dir/notes.txt")" = "keep me" ] || fail "--force touched notes.txt"
grep -qF '"count": 5' "$dir/manifest.json" || fail "manifest not replaced"
no_hidden_files "$dir"

# --suffix: numbered .in files; the .txt cases of the earlier run are not
# this suite's, so they stay.
"$KPATH" gen --strategy random -n 3 --suffix .in -o "$dir" --force grammars/config.ebnf \
    >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "--suffix: exit status $?"; }
[ -f "$dir/0003.in" ] && [ ! -e "$dir/0004.in" ] || fail "--suffix .in: expected 0001.in..0003.in"
[ -f "$dir/0005.txt" ] || fail "--suffix .in removed a .txt file"
grep -qF '{"name": "0002.in", "size": ' "$dir/manifest.json" || fail "manifest lacks 0002.in"

# A path that is a file is refused, even with --force.
"$KPATH" gen -o grammars/config.ebnf --force grammars/config.ebnf >/dev/null 2>"$tmp/err"
status=$?
[ "$status" = 2 ] || fail "-o FILE: exit status $status, expected 2"
grep -qxF 'kpath gen: error: grammars/config.ebnf exists and is not a directory' "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "-o FILE: message"; }
exit 0
