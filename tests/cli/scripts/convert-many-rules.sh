#!/bin/sh
# Issue 38 item 11: convert --to g4|fandango|tribble|fuzzingbook of a grammar
# of 40,000 rules (each name made unique through an index of the names given
# out, no longer by comparing it with every name before it, so the time is
# linear in the rules: see docs/benchmarks.md for the figures; nothing here
# is timed).  The names are chosen to collide once written: <a-i> a_i <a.i>
# <a+i> are all a_i in those formats, and 1,300 rules <bÀ> <bÁ> ... differ in
# one non-ASCII letter that each format writes alike (b__ or b_), so one
# base name is taken 1,300 times.  Each file read back has the same rules
# and nodes as the grammar (kpath info, through the .ebnf reader): a name
# given twice would lose a rule or refuse the file.  fuzzingbook writes each
# group and each "y"+ as a helper rule: 1 + N + 2(N - 1) rules for N chained
# rules, the rest the same.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# S, then the N = 4 * 9675 + 1300 = 40,000 rules in a chain
LC_ALL=C awk -v n=9675 -v m=1300 '
BEGIN {
    k = 0
    for (i = 0; i < n; i++) {
        name[k++] = "<a-" i ">"; name[k++] = "a_" i; name[k++] = "<a." i ">"; name[k++] = "<a+" i ">"
    }
    for (j = 0; j < m; j++) { # U+00C0 + j as UTF-8 (two bytes below U+0800)
        cp = 192 + j
        name[k++] = sprintf("<b%c%c>", 192 + int(cp / 64), 128 + cp % 64)
    }
    print "S := " name[0] ";"
    for (r = 0; r < k - 1; r++)
        print name[r] " := \"x\" (\"y\"+ | " name[r + 1] ")* | \"z\";"
    print name[k - 1] " := \"z\";"
}' >"$tmp/many.ebnf"
"$KPATH" info "$tmp/many.ebnf" >"$tmp/info" 2>&1 || fail "info of the grammar"
rules=$(sed -n 's/^rules: //p' "$tmp/info")
nodes=$(sed -n 's/^nodes: //p' "$tmp/info")
[ "$rules" = 40001 ] || fail "the grammar has $rules rules, not 40001"
for to in g4:g4 fandango:fan tribble:tribble fuzzingbook:json; do
    format=${to%:*} ext=${to#*:}
    "$KPATH" convert --to "$format" "$tmp/many.ebnf" -o "$tmp/many.$ext" 2>"$tmp/err" ||
        { cat "$tmp/err" >&2; fail "convert --to $format"; }
    "$KPATH" info "$tmp/many.$ext" >"$tmp/back" 2>&1 || { head "$tmp/back" >&2; fail "$format read back"; }
    want_rules=$rules want_nodes=$nodes
    if [ "$format" = fuzzingbook ]; then
        want_rules=$((1 + 40000 + 2 * 39999))
        want_nodes=$(echo "$nodes" | awk -v h=$((2 * 39999)) '{ print $1 + h, "(" substr($2, 2) + h, $3, $4, $5 }')
    fi
    got_rules=$(sed -n 's/^rules: //p' "$tmp/back")
    got_nodes=$(sed -n 's/^nodes: //p' "$tmp/back")
    [ "$got_rules" = "$want_rules" ] || fail "$format: $got_rules rules read back, expected $want_rules"
    [ "$got_nodes" = "$want_nodes" ] || fail "$format: nodes '$got_nodes' read back, expected '$want_nodes'"
done
exit 0
