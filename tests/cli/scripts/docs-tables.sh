#!/bin/sh
# The command table of docs/commands.md and the key and command tables of
# docs/explorer.md are the program's own (the CLI's command table, KEY_TABLE
# and COMMAND_TABLE, through `kpath --help`, `kpath --list-keys` and `kpath
# --man`), never copies by hand: regenerating them changes nothing.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for doc in docs/commands.md docs/explorer.md; do
    cp "$doc" "$tmp/doc.md" || exit 1
    sh docs/tables.sh "$KPATH" "$tmp/doc.md" || exit 1
    if ! cmp -s "$doc" "$tmp/doc.md"; then
        echo "FAIL: $doc's tables differ from the program's (run make docs-tables):"
        diff "$doc" "$tmp/doc.md" | head -40
        exit 1
    fi
done
grep -q '^| `kpath info` |' docs/commands.md || { echo "FAIL: no command table in docs/commands.md"; exit 1; }
grep -q '^| `? <F1>` |' docs/explorer.md || { echo "FAIL: no key table in docs/explorer.md"; exit 1; }
grep -q '^| `:k K` |' docs/explorer.md || { echo "FAIL: no command table in docs/explorer.md"; exit 1; }
