#!/bin/sh
# kpath cover -k 3 on grammars/config.ebnf: 3-path coverage of a grammar that
# picks an OS, then a processor, then a browser is exactly every combination,
# so the inputs must be the 24 strings os-processor-browser, each once.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

"$KPATH" cover -k 3 grammars/config.ebnf >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 0 ] || { cat "$tmp/err" >&2; fail "exit status $status"; }

for os in windows linux macos; do
    for cpu in arm intel; do
        for browser in chrome edge firefox safari; do
            echo "$os-$cpu-$browser"
        done
    done
done | sort >"$tmp/want"
[ "$(wc -l <"$tmp/want")" -eq 24 ] || fail "the script built $(wc -l <"$tmp/want") strings, not 24"

# Exactly 24 lines, no duplicates, and the same set.
[ "$(wc -l <"$tmp/out")" -eq 24 ] || fail "expected 24 inputs, got $(wc -l <"$tmp/out")"
sort "$tmp/out" >"$tmp/got"
sort -u "$tmp/out" | cmp -s - "$tmp/got" || fail "an input is repeated"
cmp -s "$tmp/want" "$tmp/got" || { diff "$tmp/want" "$tmp/got" >&2; fail "not the 24 combinations"; }

# The summary: every 1-, 2- and 3-path covered.  config.ebnf has 16 symbolic
# nodes; 27 2-paths (config->os 1, os->its 6 successors, 3 processor refs x 4,
# 2 browser refs x 4); 42 3-paths (6 from start, 1 x 3 refs x 4 = 12 from the
# os rule, 3 processor refs x 2 browser refs x 4 browsers = 24).
grep -qx 'inputs: 24, 418 bytes in total, 17.4 bytes on average' "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "summary: inputs line"; }
for line in '  k=1: 16/16 (100.0%)' '  k=2: 27/27 (100.0%)' '  k=3: 42/42 (100.0%)'; do
    grep -qxF "$line" "$tmp/err" || { cat "$tmp/err" >&2; fail "summary: missing '$line'"; }
done
grep -q 'uncovered' "$tmp/err" && fail "summary reports uncovered k-paths"
exit 0
