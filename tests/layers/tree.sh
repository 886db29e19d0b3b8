#!/bin/sh
# The shape of the source tree (docs/design/architecture.md), checked from
# the sources so it cannot silently regress:
#   - src/ holds folders only, each one of the library's layers, in this
#     order from the bottom; then ui/ (the explorer), then cli/ (the kpath
#     program, which opens the explorer):
#         base algo grammar graph formats parse gen suite run explain
#         infer workspace | ui | cli
#     A file may include the headers and call the functions of its own
#     folder and the folders below it, never above.
#   - Every folder of src/ has a README.md naming each module it holds.
#   - No circle of modules anywhere (a module: NAME.c with NAME.h), through
#     includes or calls.
#   - Every module starts with a comment stating its contract: its header,
#     or its .c file when it has no header.
# A call is a use of a function defined (not static) in another module's .c
# file, found in the sources without comments and literals (strip.awk).
# POSIX sh, sed and awk only.  Run from anywhere: sh tests/layers/tree.sh
# (TREE_ROOT=DIR checks another copy of the tree: tests/layers/selftest.sh).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=${TREE_ROOT:-$(cd "$here/../.." && pwd)}
cd "$root" || exit 2

order='base algo grammar graph formats parse gen suite run explain infer workspace'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL tree: $*"; failed=$((failed + 1)); }

# Folders: each src/ folder a layer, with a README naming its modules.
for f in src/*; do
    [ -d "$f" ] || { fail "$f: src/ holds folders only"; continue; }
    case " $order " in *" ${f#src/} "*) ;; *) fail "$f is not a layer of src/ (tests/layers/tree.sh lists them)" ;; esac
    [ -f "$f/README.md" ] || fail "$f has no README.md saying what it holds"
done
for d in $order; do [ -d "src/$d" ] || fail "src/$d is missing"; done

# One pass over every source file (comments and literals stripped, strip.awk)
# gives: contract comments and README names (reported at once), then
# "$tmp/files" (FILE MODULE RANK), "$tmp/includes" (FROM TO) and
# "$tmp/defs" (MODULE FUNCTION, non-static definitions in .c files).
# shellcheck disable=SC2046
awk -v order="$order" -v tmp="$tmp" -f "$here/strip.awk" -f /dev/stdin \
    $(ls src/*/*.[ch] ui/*.[ch] cli/*.[ch]) src/*/README.md <<'AWK' || failed=$((failed + 1))
BEGIN {
    print "- -" > (tmp "/statics")   # never empty: the next awk counts its files
    n = split(order, o, " ")
    for (i = 1; i <= n; i++) rank["src/" o[i]] = i - 1
    rank["ui"] = n; rank["cli"] = n + 1
}
FNR == 1 {
    incomment = 0; pending = ""
    dir = FILENAME; sub(/\/[^\/]*$/, "", dir)
    base = FILENAME; sub(/.*\//, "", base)
    if (base == "README.md") { readme = dir; next }
    readme = ""
    mod = dir "/" base; sub(/\.[ch]$/, "", mod)
    print FILENAME, mod, rank[dir] > (tmp "/files")
    if (FILENAME ~ /\.h$/) hasheader[mod] = 1
    first[FILENAME] = ($0 ~ /^\/\* /)
    modfolder[mod] = dir
}
readme != "" { text[readme] = text[readme] " " $0; next }
/^#include "/ {
    h = $0; sub(/^#include "/, "", h); sub(/".*/, "", h)
    if (h ~ /\.h$/) {
        sub(/\.h$/, "", h)
        if (h ~ /^\.\.\//) to = substr(h, 4); else if (h ~ /\//) to = "src/" h; else to = dir "/" h
        print mod, to > (tmp "/includes")
    }
}
{ line = strip($0) }
FILENAME ~ /\.c$/ {
    print mod "\t" line > (tmp "/code")
    if (match(line, /^static [^=(]*[A-Za-z_][A-Za-z0-9_]*\(/)) {
        s = substr(line, RSTART, RLENGTH - 1); sub(/.*[^A-Za-z0-9_]/, "", s)
        print mod, s > (tmp "/statics")
    }
    if (line ~ /^[A-Za-z_]/ && line !~ /^(static|typedef|extern|struct [a-z_]+ \{|enum|#)/ && line !~ /;[ \t]*$/) {
        pending = ""
        if (match(line, /[A-Za-z_][A-Za-z0-9_]*\(/)) pending = substr(line, RSTART, RLENGTH - 1)
    } else if (line ~ /^\{/ && pending != "" && pending != "main") {
        print mod, pending > (tmp "/defs"); pending = ""
    } else if (!(line ~ /^[ \t]/ && pending != "" && line !~ /;[ \t]*$/)) pending = ""
}
END {
    bad = 0
    for (f in first) {
        m = f; sub(/\.[ch]$/, "", m)
        if (f ~ /\.c$/ && (m in hasheader)) continue
        if (!first[f]) { printf "FAIL tree: %s does not start with a comment stating its contract\n", f; bad++ }
    }
    for (m in modfolder) {
        d = modfolder[m]; if (d !~ /^src\//) continue
        b = m; sub(/.*\//, "", b)
        if ((d in text) && (text[d] " ") !~ ("[^A-Za-z0-9_]" b "[^A-Za-z0-9_]")) {
            printf "FAIL tree: %s/README.md does not name %s\n", d, b; bad++ }
    }
    exit bad > 0
}
AWK
grep -q '^src/base/strbuf strbuf_add$' "$tmp/defs" || fail "did not find strbuf_add in src/base/strbuf.c (the check is broken)"

# Calls: "$tmp/calls" (FROM TO FUNCTION), each identifier of a .c file that
# another module defines, but for the file's own static functions of the same
# name.
awk '
FNR == 1 { pass++ }
pass == 1 { def[$2] = $1; next }
pass == 2 { own[$1, $2] = 1; next }
{
    mod = $0; sub(/\t.*/, "", mod); text = substr($0, length(mod) + 2)
    n = split(text, w, /[^A-Za-z0-9_]+/)
    for (i = 1; i <= n; i++)
        if ((w[i] in def) && def[w[i]] != mod && !((mod, w[i]) in own) && !((mod, w[i]) in seen)) {
            seen[mod, w[i]] = 1; print mod, def[w[i]], w[i] }
}' "$tmp/defs" "$tmp/statics" "$tmp/code" >"$tmp/calls"

# Layers and circles, over includes and calls together.
awk '
FILENAME ~ /files$/ { rank[$2] = $3; mods[$2] = 1; next }
FILENAME ~ /includes$/ { if ($2 in mods) add($1, $2, "includes " $2 ".h"); next }
{ add($1, $2, "calls " $3 " of " $2) }
function add(a, b, why) {
    if (a == b) return
    if (!((a, b) in edge)) { edge[a, b] = why; nout[a]++; out[a, nout[a]] = b }
    if (rank[b] > rank[a] && !((a, b) in told)) {
        told[a, b] = 1
        printf "FAIL tree: %s %s: a layer above its own\n", a, why
        bad++
    }
}
END {
    # Tarjan strongly connected components, iteratively.
    idx = 0
    for (v in mods) if (!(v in index_of)) {
        sp = 0; cs = 0
        call[++cs] = v; it[cs] = 0
        index_of[v] = low[v] = ++idx; stack[++sp] = v; on[v] = 1
        while (cs > 0) {
            u = call[cs]
            if (it[cs] < nout[u]) {
                w = out[u, ++it[cs]]
                if (!(w in index_of)) {
                    index_of[w] = low[w] = ++idx; stack[++sp] = w; on[w] = 1
                    call[++cs] = w; it[cs] = 0
                } else if (on[w] && index_of[w] < low[u]) low[u] = index_of[w]
                continue
            }
            if (low[u] == index_of[u]) {
                comp = ""; size = 0
                do { w = stack[sp--]; on[w] = 0; comp = comp (size++ ? " " : "") w } while (w != u)
                if (size > 1) {
                    m = split(comp, part, " "); sorted = sortwords(part, m)
                    printf "FAIL tree: a circle of modules: %s\n", sorted; bad++
                }
            }
            cs--
            if (cs > 0) { p = call[cs]; if (low[u] < low[p]) low[p] = low[u] }
        }
    }
    nm = 0; for (v in mods) nm++
    ne = 0; for (e in edge) ne++
    if (!bad) printf "tree: src/, ui/ and cli/ read bottom-up, no circles (%d modules, %d dependencies)\n", nm, ne
    exit bad > 0
}
function sortwords(a, n,    i, j, t, s) {
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    s = a[1]; for (i = 2; i <= n; i++) s = s " " a[i]
    return s
}' "$tmp/files" "$tmp/includes" "$tmp/calls" || failed=$((failed + 1))

# No command file calls a function of another command file: what two commands
# share is a module of its own (campaign_loop, explain_session, run_cli, ...),
# so that each cli/cmd_*.c can be read, changed or removed alone.
awk '$1 ~ /^cli\/cmd_/ && $2 ~ /^cli\/cmd_/ {
    printf "FAIL tree: %s calls %s of %s: move what commands share into a module of its own\n", $1, $3, $2
    bad++ }
END { exit bad > 0 }' "$tmp/calls" || failed=$((failed + 1))

[ "$failed" = 0 ]
