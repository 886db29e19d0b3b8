#!/bin/sh
# Rewrite the generated tables of a doc (docs/explorer.md, docs/commands.md)
# from the program's own tables, so the docs cannot drift from what kpath does:
#   <!-- cli: ... -->       ... <!-- end of cli -->        from `kpath --help`'s
#                           command list (the CLI's command table, cli/)
#   <!-- keys: ... -->      ... <!-- end of keys -->       from `kpath --list-keys`
#                           (the explorer's KEY_TABLE, ui/keys.h)
#   <!-- commands: ... -->  ... <!-- end of commands -->   from `kpath --man`'s
#                           "Commands (type : first)", made from COMMAND_TABLE
#                           (ui/command_table.h), as ':help' shows it
# Usage: sh docs/tables.sh KPATH FILE   (`make docs-tables` runs it; the test
# tests/cli/scripts/docs-tables.sh checks that nothing would change).  A FILE
# holds any of the three, at least one.
set -u
kpath=${1:?usage: tables.sh KPATH FILE} file=${2:?usage: tables.sh KPATH FILE}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# A markdown cell: `|` escaped, so it does not end the cell.
"$kpath" --list-keys >"$tmp/keys" || exit 1
awk -F '\t' '
function cell(s) { gsub(/\|/, "\\|", s); return s }
$1 != ctx {
    if (ctx != "") print ""
    ctx = $1
    print "**" ctx "**"; print ""
    print "| keys | what they do |"; print "| --- | --- |"
}
{ print "| `" cell($2) "` | " cell($3) " |" }
' "$tmp/keys" >"$tmp/keys.md"

"$kpath" --man >"$tmp/man" || exit 1
awk '
function unroff(s) {
    gsub(/\\f[BRI]/, "", s); gsub(/\\-/, "-", s); gsub(/\\&/, "", s); gsub(/\\e/, "\\", s)
    sub(/[ \t]+$/, "", s); return s
}
function cell(s) { gsub(/\|/, "\\|", s); return s }
/^\.SS "Commands \(type : first\)"/ { on = 1; print "| command | what it does |"; print "| --- | --- |"; next }
on && /^\.S[HS]/ { on = 0 }
!on { next }
/^\.TP/ { want = "name"; next }
want == "name" { name = unroff($0); want = "help"; next }
want == "help" { print "| `" cell(name) "` | " cell(unroff($0)) " |"; want = "" }
' "$tmp/man" >"$tmp/commands.md"
"$kpath" --help >"$tmp/help" || exit 1
awk '
/^Commands:/ { on = 1; print "| command | what it does |"; print "| --- | --- |"; next }
on && !/^  [a-z]/ { on = 0 }
on { name = $1; sub(/^  [^ ]+ +/, ""); print "| `kpath " name "` | " $0 " |" }
' "$tmp/help" >"$tmp/cli.md"
[ -s "$tmp/keys.md" ] && [ -s "$tmp/commands.md" ] && [ -s "$tmp/cli.md" ] || { echo "tables.sh: no table from $kpath" >&2; exit 1; }

awk -v keys="$tmp/keys.md" -v commands="$tmp/commands.md" -v cli="$tmp/cli.md" '
function splice(f,   line) { while ((getline line < f) > 0) print line; close(f) }
/^<!-- keys: / { print; splice(keys); skip = 1; seen = 1; next }
/^<!-- commands: / { print; splice(commands); skip = 1; seen = 1; next }
/^<!-- cli: / { print; splice(cli); skip = 1; seen = 1; next }
/^<!-- end of (keys|commands|cli) -->/ { skip = 0 }
!skip { print }
END { if (!seen || skip) { print "tables.sh: markers missing or unclosed" > "/dev/stderr"; exit 1 } }
' "$file" >"$tmp/out" || exit 1
cmp -s "$tmp/out" "$file" || cat "$tmp/out" >"$file"
