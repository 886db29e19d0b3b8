#!/bin/sh
# `kpath paths --count` (dynamic programming) must equal the number of paths
# `kpath paths` lists (enumeration), for every bundled and test grammar and
# k = 1..4.
set -u
status=0
for g in grammars/*.ebnf tests/grammars/ok/*.ebnf; do
    for k in 1 2 3 4; do
        count=$("$KPATH" paths -k "$k" --count "$g" 2>/dev/null)
        listed=$("$KPATH" paths -k "$k" "$g" 2>/dev/null | wc -l | tr -d ' ')
        if [ "$count" != "$listed" ]; then
            echo "$g k=$k: --count says $count, listing has $listed"
            status=1
        fi
    done
done
exit $status
