#!/bin/sh
# The key and command tables of docs/explorer.md are the program's own
# (KEY_TABLE and COMMAND_TABLE, through `kpath --list-keys` and `kpath
# --man`), never copies by hand: regenerating them changes nothing.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cp docs/explorer.md "$tmp/explorer.md" || exit 1
sh docs/tables.sh "$KPATH" "$tmp/explorer.md" || exit 1
if ! cmp -s docs/explorer.md "$tmp/explorer.md"; then
    echo "FAIL: docs/explorer.md's tables differ from the program's (run make docs-tables):"
    diff docs/explorer.md "$tmp/explorer.md" | head -40
    exit 1
fi
grep -q '^| `? <F1>` |' docs/explorer.md || { echo "FAIL: no key table in docs/explorer.md"; exit 1; }
grep -q '^| `:k K` |' docs/explorer.md || { echo "FAIL: no command table in docs/explorer.md"; exit 1; }
