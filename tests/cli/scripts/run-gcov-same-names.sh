#!/bin/sh
# --gcov names same-named functions apart (issue 34, issue 32 item 3): a
# program of two files, each with a static function `helper` (a.c line 2,
# b.c line 3), and a unique `only_a`; an input "a" runs a.c's helper and
# only_a, "b" b.c's helper, "n" neither.  Unique names stay fn:NAME;
# each of the shared ones is fn:helper@FILE:LINE, in every run alike.
# Skipped, saying so, without gcc and gcov.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v gcc >/dev/null 2>&1 && command -v gcov >/dev/null 2>&1 ||
    { echo "SKIP: run-gcov-same-names needs gcc and gcov"; exit 0; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src" "$tmp/in"
cat >"$tmp/src/a.c" <<'C'
#include <stdio.h>
static int helper(int x) { return x + 1; }
int only_a(int x) { return helper(x); }
C
cat >"$tmp/src/b.c" <<'C'
#include <stdio.h>
int only_a(int x);
static int helper(int x) { return x * 2; }
int main(void)
{
    int c = getchar();
    if (c == 'a')
        printf("%d\n", only_a(1));
    else if (c == 'b')
        printf("%d\n", helper(1));
    return 0;
}
C
(cd "$tmp/src" && gcc --coverage -O0 -o prog a.c b.c) || fail "cannot build the program"
printf 'a' >"$tmp/in/a"
printf 'b' >"$tmp/in/b"
printf 'n' >"$tmp/in/n"
"$KPATH" run -q -j 1 --keep-going --gcov "$tmp/src" --results "$tmp/r.jsonl" grammars/expr.ebnf \
    "$tmp/in" -- "$tmp/src/prog" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "exit status $?"; }
features() { grep -F "\"input\":\"$tmp/in/$1\"" "$tmp/r.jsonl" | sed 's/.*"features":\[\(.*\)\]}$/\1/' | tr -d '"'; }
[ "$(features a)" = "exit:0,fn:helper@a.c:2,fn:main,fn:only_a" ] || fail "a: $(features a)"
[ "$(features b)" = "exit:0,fn:helper@b.c:3,fn:main" ] || fail "b: $(features b)"
[ "$(features n)" = "exit:0,fn:main" ] || fail "n: $(features n)"
exit 0
