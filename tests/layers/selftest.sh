#!/bin/sh
# tests/layers/tree.sh can fail: on a copy of the tree with one defect put
# in at a time, it must name that defect, and on the copy as it is it must
# pass.  Each defect is one the check exists for: a call up a layer, an
# include up a layer, a circle of modules, a folder README that misses a
# module, a module without its contract comment.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0 n=0
copy() {
    rm -rf "$tmp/t"; mkdir "$tmp/t"
    (cd "$root" && cp -R src ui cli "$tmp/t/")
}
# expect NAME PATTERN: tree.sh on the copy fails and prints PATTERN (a
# fixed string); PATTERN "" means it passes.
expect() {
    n=$((n + 1))
    out=$(TREE_ROOT="$tmp/t" sh "$here/tree.sh" 2>&1); status=$?
    if [ -z "$2" ]; then
        [ "$status" = 0 ] || { echo "FAIL selftest $1: the tree as it is fails:"; echo "$out"; failed=$((failed + 1)); }
    elif [ "$status" = 0 ] || ! printf '%s\n' "$out" | grep -qF "$2"; then
        echo "FAIL selftest $1: expected a failure naming '$2', got status $status:"; echo "$out" | head -n 5
        failed=$((failed + 1))
    fi
}
copy
expect "unchanged" ""
printf '\nvoid number_calls_up(void);\nvoid number_calls_up(void)\n{\n    workspace_free(0);\n}\n' >>"$tmp/t/src/base/number.c"
expect "call up" "src/base/number calls workspace_free of src/workspace/workspace: a layer above its own"
copy
sed -i '1a #include "parse/parse.h"' "$tmp/t/src/graph/kpath.h"
expect "include up" "src/graph/kpath includes src/parse/parse.h: a layer above its own"
copy
printf '\nvoid utf8_calls_back(void);\nvoid utf8_calls_back(void)\n{\n    strbuf_add(0, 0, 0);\n}\n' >>"$tmp/t/src/base/utf8.c"
expect "circle" "a circle of modules: src/base/strbuf src/base/utf8"
copy
sed -i 's/`sha256`[^;]*;//' "$tmp/t/src/base/README.md"
expect "readme" "src/base/README.md does not name sha256"
copy
sed -i '1s|^/\* |// |' "$tmp/t/src/algo/setcover.h"
expect "contract" "src/algo/setcover.h does not start with a comment"
echo "selftest: tree.sh named each of $((n - 1)) defects and passed the tree as it is"
[ "$failed" = 0 ]
