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
#     includes or calls.  Known circles, one "MODULE MODULE ..." line each,
#     are listed in $allowed below until they are taken apart.
#   - Every module starts with a comment stating its contract: its header,
#     or its .c file when it has no header.
# A call is a use of a function defined (not static) in another module's .c
# file, found in the sources without comments and literals (strip.awk).
# POSIX sh, sed and awk only.  Run from anywhere: sh tests/layers/tree.sh
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2

order='base algo grammar graph formats parse gen suite run explain infer workspace'
allowed='
ui/app ui/commands
'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL tree: $*"; failed=$((failed + 1)); }

# The rank of a file's folder: src/FOLDER by the order above, then ui, cli.
rank=0
: >"$tmp/ranks"
for d in $order; do
    echo "src/$d $rank" >>"$tmp/ranks"
    rank=$((rank + 1))
done
echo "ui $rank" >>"$tmp/ranks"
echo "cli $((rank + 1))" >>"$tmp/ranks"

for f in src/*; do
    if [ -d "$f" ]; then
        grep -q "^$f " "$tmp/ranks" || fail "$f is not a layer of src/ (tests/layers/tree.sh lists them)"
        if [ -f "$f/README.md" ]; then
            for m in "$f"/*.[ch]; do
                b=$(basename "$m"); b=${b%.*}
                grep -q "\\b$b\\b" "$f/README.md" || fail "$f/README.md does not name $b"
            done
        else
            fail "$f has no README.md saying what it holds"
        fi
    else
        fail "$f: src/ holds folders only"
    fi
done
for d in $order; do [ -d "src/$d" ] || fail "src/$d is missing"; done

files=$(ls src/*/*.[ch] ui/*.[ch] cli/*.[ch])
for f in $files; do
    case $f in *.c) [ -f "${f%.c}.h" ] && continue ;; esac
    head -n 1 "$f" | grep -q '^/\* ' || fail "$f does not start with a comment stating its contract"
done

# FILE MODULE RANK for every file; includes as FROM-MODULE TO-MODULE.
for f in $files; do
    dir=$(dirname "$f")
    b=$(basename "$f")
    echo "$f $dir/${b%.*} $(sed -n "s|^$dir ||p" "$tmp/ranks")"
    for h in $(sed -n 's/^#include "\([^"]*\)\.h".*/\1/p' "$f"); do
        case $h in
        ../*) to=${h#../} ;;
        */*) to=src/$h ;;
        *) to=$dir/$h ;;
        esac
        echo "$dir/${b%.*} $to" >>"$tmp/includes"
    done
    awk -f tests/layers/strip.awk "$f" >"$tmp/$(echo "$f" | tr / _).code"
done >"$tmp/files"
[ -s "$tmp/includes" ] || fail "found no includes (the check is broken)"

# Non-static functions defined in .c files (the body on the next line): MODULE NAME.
while read -r f m r; do
    case $f in *.c) ;; *) continue ;; esac
    awk -v mod="$m" '
    /^[A-Za-z_]/ && !/^(static|typedef|extern|struct [a-z_]+ \{|enum|#)/ && !/;[ \t]*$/ {
        if (match($0, /[A-Za-z_][A-Za-z0-9_]*\(/)) {
            name = substr($0, RSTART, RLENGTH - 1); pending = name } else pending = ""
        next }
    /^\{/ && pending != "" && pending != "main" { print mod, pending; pending = ""; next }
    /^[ \t]/ && pending != "" && !/;[ \t]*$/ { next }   # parameters go on
    { pending = "" }' "$tmp/$(echo "$f" | tr / _).code"
done <"$tmp/files" >"$tmp/defs"
grep -q '^src/base/strbuf strbuf_add$' "$tmp/defs" || fail "did not find strbuf_add in src/base/strbuf.c (the check is broken)"

# Calls: every identifier of a .c file that another module defines.
while read -r f m r; do
    case $f in *.c) ;; *) continue ;; esac
    code=$tmp/$(echo "$f" | tr / _).code
    awk -v mod="$m" '
    FNR == 1 { pass++ }
    pass == 1 { def[$2] = $1; next }
    pass == 2 { if (match($0, /^static [^=(]*[A-Za-z_][A-Za-z0-9_]*\(/)) {   # its own, of the same name
                    s = substr($0, RSTART, RLENGTH - 1); sub(/.*[^A-Za-z0-9_]/, "", s); own[s] = 1 }
                next }
    { n = split($0, w, /[^A-Za-z0-9_]+/)
      for (i = 1; i <= n; i++)
          if ((w[i] in def) && !(w[i] in own) && def[w[i]] != mod && !seen[w[i]]++) print mod, def[w[i]], w[i] }
    ' "$tmp/defs" "$code" "$code"
done <"$tmp/files" >"$tmp/calls"

# Layers and circles, over includes and calls together.
awk -v allowed="$allowed" '
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
    n = split(allowed, lines, "\n")
    for (i = 1; i <= n; i++) if (lines[i] != "") ok[lines[i]] = 1
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
                    if (!(sorted in ok)) { printf "FAIL tree: a circle of modules: %s\n", sorted; bad++ }
                    else used[sorted] = 1
                }
            }
            cs--
            if (cs > 0) { p = call[cs]; if (low[u] < low[p]) low[p] = low[u] }
        }
    }
    for (l in ok) if (!(l in used)) { printf "FAIL tree: allowed circle no longer there (remove it): %s\n", l; bad++ }
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

[ "$failed" = 0 ]
