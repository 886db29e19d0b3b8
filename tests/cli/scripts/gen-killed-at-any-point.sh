#!/bin/sh
# kill -9 at every point of a `--force -o DIR` run over an earlier suite (the
# KPATH_OUTDIR_KILL_AT hook of src/base/outdir.h makes the run kill itself just
# before its N-th change to the directory): afterwards the manifest is absent
# or true (every file it lists is there, whole, with its recorded size), and
# every visible file is whole, the old version or the new one.  A later run
# removes the killed runs' hidden temporary files.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
g=grammars/config.ebnf
# The old suite: 30 random inputs (so 0025..0030 are stale for the new one);
# the new suite, as a fresh run makes it.
"$KPATH" gen --strategy random -n 30 -o "$tmp/old" $g 2>/dev/null || fail "old suite"
"$KPATH" cover -k 3 -o "$tmp/new" $g 2>/dev/null || fail "new suite"
[ "$(ls "$tmp/new" | wc -l)" -eq 25 ] || fail "expected 24 new cases and a manifest"

# true_manifest DIR REF: DIR/manifest.json is REF's, and every file it lists
# is in DIR with the size it records and REF's contents.
true_manifest() {
    cmp -s "$1/manifest.json" "$2/manifest.json" || return 1
    sed -n 's/^ *{"name": "\([^"]*\)", "size": \([0-9]*\),.*/\1 \2/p' "$1/manifest.json" >"$tmp/listed"
    [ -s "$tmp/listed" ] || return 1
    while read -r name size; do
        [ -f "$1/$name" ] || return 1
        [ "$(wc -c <"$1/$name" | tr -d ' ')" = "$size" ] || return 1
        cmp -s "$1/$name" "$2/$name" || return 1
    done <"$tmp/listed"
}

n=1 killed=0 without_manifest=0
while :; do
    rm -rf "$tmp/d"
    cp -R "$tmp/old" "$tmp/d"
    KPATH_OUTDIR_KILL_AT=$n "$KPATH" cover -k 3 --force -o "$tmp/d" $g >/dev/null 2>"$tmp/err"
    status=$?
    [ $status = 0 ] && break
    [ $status = 137 ] || { cat "$tmp/err" >&2; fail "step $n: exit status $status, not 137 (SIGKILL)"; }
    killed=$((killed + 1))
    if [ -e "$tmp/d/manifest.json" ]; then
        true_manifest "$tmp/d" "$tmp/old" || true_manifest "$tmp/d" "$tmp/new" ||
            fail "killed before step $n: manifest.json does not describe the files beside it"
    else
        without_manifest=$((without_manifest + 1))
    fi
    for f in "$tmp/d"/*; do
        name=$(basename "$f")
        cmp -s "$f" "$tmp/old/$name" || cmp -s "$f" "$tmp/new/$name" ||
            fail "killed before step $n: $name is neither the old nor the new file"
    done
    [ $n -lt 500 ] || fail "the run is still killed at step $n"
    n=$((n + 1))
done
# 24 temporary files, 24 renames, the manifest's removal, write and rename,
# 6 stale cases: the run was interrupted at each of them.
[ $killed -ge 57 ] || fail "only $killed interrupted runs; the kill hook is not honoured"
[ $without_manifest -ge 1 ] || fail "the old manifest was never removed before the files changed"
diff -r "$tmp/d" "$tmp/new" >/dev/null || fail "the run that completed did not make the new suite"

# A killed run's temporaries: the next --force run removes them, and only them.
rm -rf "$tmp/d"
cp -R "$tmp/old" "$tmp/d"
KPATH_OUTDIR_KILL_AT=10 "$KPATH" cover -k 3 --force -o "$tmp/d" $g >/dev/null 2>&1
[ $? = 137 ] || fail "the run was not killed at step 10"
ls -A "$tmp/d" | grep -q '^\.' || fail "the killed run left no temporary files to clean up"
echo mine >"$tmp/d/.notes.tmp"
"$KPATH" cover -k 3 --force -o "$tmp/d" $g >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "cleanup run"; }
hidden=$(ls -A "$tmp/d" | grep '^\.' | tr '\n' ' ')
[ "$hidden" = ".notes.tmp " ] || fail "hidden files after a complete run: '$hidden'"
rm "$tmp/d/.notes.tmp"
diff -r "$tmp/d" "$tmp/new" >/dev/null || fail "the cleanup run did not make the new suite"
exit 0
