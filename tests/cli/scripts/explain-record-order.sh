#!/bin/sh
# kpath explain reads records in input path order: the same records in two
# orders (as `kpath run -j 2` writes them, in the order runs end) give the same
# trees, the same balanced samples and the same held-out split, so the same
# output byte for byte.  Reading in file order, the balanced sample (and the
# split) took different records from the two files.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
src=tests/explain/expr/train.jsonl
grammar=$PWD/grammars/expr.ebnf
# The same name in two directories: the output names the results file.
mkdir "$tmp/file-order" "$tmp/reversed"
for d in file-order reversed; do
    ln -s "$PWD/tests/explain/expr/train" "$tmp/$d/train"
    head -n 1 "$src" >"$tmp/$d/results.jsonl"
done
tail -n +2 "$src" >>"$tmp/file-order/results.jsonl"
tail -n +2 "$src" | awk '{ l[NR] = $0 } END { for (i = NR; i >= 1; i--) print l[i] }' >>"$tmp/reversed/results.jsonl"
cmp -s "$tmp/file-order/results.jsonl" "$tmp/reversed/results.jsonl" && fail "the two files are the same"
[ "$(sort "$tmp/file-order/results.jsonl" | md5sum)" = "$(sort "$tmp/reversed/results.jsonl" | md5sum)" ] || fail "not the same records"
explain() { # DIR ARGS...: explain run in DIR
    d=$1; shift
    (cd "$tmp/$d" && "$KPATH" explain "$@" "$grammar" results.jsonl)
}
for opts in "-k 2" "-k 2 --split 30" "-k 3 --criterion entropy"; do
    explain file-order $opts >"$tmp/a" 2>"$tmp/a.err" || fail "explain $opts exited $?: $(cat "$tmp/a.err")"
    explain reversed $opts >"$tmp/b" 2>"$tmp/b.err" || fail "explain $opts (reversed) exited $?: $(cat "$tmp/b.err")"
    grep -q 'fn:mul_add' "$tmp/a" || fail "explain $opts: no fn:mul_add in $(cat "$tmp/a")"
    cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b" | head -20; fail "explain $opts: the order of the records changed the output"; }
    explain file-order --json $opts >"$tmp/a" 2>/dev/null
    explain reversed --json $opts >"$tmp/b" 2>/dev/null
    cmp -s "$tmp/a" "$tmp/b" || fail "explain --json $opts: the order of the records changed the output"
done
exit 0
