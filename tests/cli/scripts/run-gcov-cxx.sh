#!/bin/sh
# --gcov on a C++ program (issue 34): its notes have mangled names, which
# gcov demangles and kpath's own reader does not, so kpath says so once and
# runs gcov after each run instead; the features are gcov's demangled
# names: the input "a" runs main and twice(int).  Skipped, saying so,
# without g++ and gcov.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v g++ >/dev/null 2>&1 && command -v gcov >/dev/null 2>&1 ||
    { echo "SKIP: run-gcov-cxx needs g++ and gcov"; exit 0; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src" "$tmp/in"
cat >"$tmp/src/p.cc" <<'CXX'
#include <cstdio>
static int twice(int x) { return 2 * x; }
int main() { int c = std::getchar(); std::printf("%d\n", twice(c)); return 0; }
CXX
(cd "$tmp/src" && g++ --coverage -O0 -o p p.cc) || fail "cannot build the program"
printf 'a' >"$tmp/in/a"
printf 'b' >"$tmp/in/b"
"$KPATH" run -q -j 1 --gcov "$tmp/src" --results "$tmp/r.jsonl" grammars/expr.ebnf \
    "$tmp/in" -- "$tmp/src/p" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "exit status $?"; }
grep -qxF "kpath run: note: --gcov: $tmp/src/p.gcno has C++ names (_ZL5twicei), which gcov demangles, so gcov runs after each run to read its counters (slower)" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "no note, or not the expected one"; }
[ "$(grep -c 'note:' "$tmp/err")" = 1 ] || { cat "$tmp/err" >&2; fail "the note is not said once"; }
features() { grep -F "\"input\":\"$tmp/in/$1\"" "$tmp/r.jsonl" | sed 's/.*"features":\[\(.*\)\]}$/\1/' | tr -d '"'; }
[ "$(features a)" = "exit:0,fn:main,fn:twice(int)" ] || fail "a: $(features a)"
[ "$(features b)" = "exit:0,fn:main,fn:twice(int)" ] || fail "b: $(features b)"
exit 0
