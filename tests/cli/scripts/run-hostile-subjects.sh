#!/bin/sh
# kpath run contains a program that misbehaves (tests/subjects/hostile.c):
# chosen exit codes, a crash, a hang and one that ignores SIGTERM (both end
# as timeouts), a fork whose child would outlive the run (it must be killed:
# no process may remain), 16 MiB on stdout (counted and hashed whole, one
# capped first line kept), no terminal, the input as a read-only copy, the
# memory limit on allocations and on files written; no
# run directory is left behind and the suite is unchanged.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
hostile=$(dirname "$KPATH")/tests/subjects/hostile
[ -x "$hostile" ] || fail "no $hostile (make subjects)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/in" "$tmp/runs"
printf 'exit 0' >"$tmp/in/a-exit0"
printf 'exit 3' >"$tmp/in/b-exit3"
printf 'exit 255' >"$tmp/in/c-exit255"
printf 'segv' >"$tmp/in/d-segv"
printf 'hang' >"$tmp/in/e-hang"
printf 'ignore-term' >"$tmp/in/f-ignore-term"
printf 'fork %s' "$tmp/child.pid" >"$tmp/in/g-fork"
mkdir "$tmp/flood"
printf 'flood 16' >"$tmp/flood/h-flood"
printf 'tty' >"$tmp/in/i-tty"
(cd "$tmp/in" && sha256sum ./*) >"$tmp/before"

TMPDIR=$tmp/runs "$KPATH" run -q -j 2 --timeout 5 --keep-going --results "$tmp/r.jsonl" \
    grammars/expr.ebnf "$tmp/in" -- "$hostile" >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 0 ] || { cat "$tmp/err" >&2; fail "exit status $status"; }

outcome() { grep -F "\"input\":\"$tmp/in/$1\"" "$tmp/r.jsonl" | sed 's/.*"outcome":"\([^"]*\)".*/\1/'; }
[ "$(outcome a-exit0)" = exit:0 ] || fail "a-exit0: $(outcome a-exit0)"
[ "$(outcome b-exit3)" = exit:3 ] || fail "b-exit3: $(outcome b-exit3)"
[ "$(outcome c-exit255)" = exit:255 ] || fail "c-exit255: $(outcome c-exit255)"
[ "$(outcome d-segv)" = signal:SIGSEGV ] || fail "d-segv: $(outcome d-segv)"
[ "$(outcome e-hang)" = timeout ] || fail "e-hang: $(outcome e-hang)"
[ "$(outcome f-ignore-term)" = timeout ] || fail "f-ignore-term: $(outcome f-ignore-term)"
[ "$(outcome g-fork)" = exit:0 ] || fail "g-fork: $(outcome g-fork)"
[ "$(outcome i-tty)" = exit:0 ] || fail "i-tty had a terminal: $(outcome i-tty)"
[ "$(grep -c '"input"' "$tmp/r.jsonl")" = 8 ] || fail "not 8 records"
# The outcome is the first feature of each record.
grep -qF '"features":["signal:SIGSEGV"]' "$tmp/r.jsonl" || fail "no signal:SIGSEGV feature"

# The forked child was killed with its group.
[ -s "$tmp/child.pid" ] || fail "the forked child never ran"
pid=$(cat "$tmp/child.pid")
# Dead, or a zombie waiting for its new parent (init) to reap it.
state=$(ps -o stat= -p "$pid" 2>/dev/null)
case $state in
'' | Z*) ;;
*) kill -9 "$pid"; fail "the forked child $pid outlived its run (state $state)" ;;
esac

# 16 MiB of 'x': size and hash of all of it, a first line of 200 bytes (a
# run of its own, with a timeout that a slow sanitized build still meets).
TMPDIR=$tmp/runs "$KPATH" run -q --timeout 300 --results "$tmp/flood.jsonl" \
    grammars/expr.ebnf "$tmp/flood" -- "$hostile" >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "flood: exit status $?"; }
grep -qF '"outcome":"exit:0"' "$tmp/flood.jsonl" || fail "flood: not exit:0"
want_sha=$(head -c 16777216 /dev/zero | tr '\0' x | sha256sum | cut -d' ' -f1)
line=$(grep -F "h-flood" "$tmp/flood.jsonl")
echo "$line" | grep -qF "\"stdout\":{\"size\":16777216,\"sha256\":\"$want_sha\"" ||
    fail "flood stdout not counted and hashed whole"
first=$(echo "$line" | sed 's/.*"stdout":{[^}]*"first_line":"\(x*\)".*/\1/')
[ "${#first}" = 200 ] || fail "flood first line kept ${#first} bytes, not 200"

# Nothing left behind, nothing changed.
[ -z "$(ls -A "$tmp/runs")" ] || fail "run directories left: $(ls "$tmp/runs")"
(cd "$tmp/in" && sha256sum ./*) | cmp -s - "$tmp/before" || fail "the suite changed"

# The memory limit (32M): a file past it ends the run with SIGXFSZ (the
# working directory cannot be filled), an allocation past it fails, a small
# one does not.
mkdir "$tmp/lim"
printf 'fill 64' >"$tmp/lim/fill"
printf 'alloc 64' >"$tmp/lim/alloc"
printf 'alloc 1' >"$tmp/lim/alloc-small"
TMPDIR=$tmp/runs "$KPATH" run -q --max-memory 32M --keep-going --results "$tmp/lim.jsonl" \
    grammars/expr.ebnf "$tmp/lim" -- "$hostile" >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "limits: exit status $?"; }
limit() { grep -F "\"input\":\"$tmp/lim/$1\"" "$tmp/lim.jsonl" | sed 's/.*"outcome":"\([^"]*\)".*/\1/'; }
[ "$(limit fill)" = signal:SIGXFSZ ] || fail "fill: $(limit fill)"
[ "$(limit alloc)" = exit:5 ] || fail "alloc past the limit: $(limit alloc)"
[ "$(limit alloc-small)" = exit:0 ] || fail "small alloc: $(limit alloc-small)"
[ -z "$(ls -A "$tmp/runs")" ] || fail "run directories left after the limits"

# The report lists the classes, failures with their smallest input.
grep -q '^  exit:0 .* 3$' "$tmp/out" || { cat "$tmp/out" >&2; fail "no exit:0 class of 3 (a, g, i)"; }
grep -q "^  timeout .* 2   smallest: $tmp/in/e-hang (4 bytes)\$" "$tmp/out" ||
    { cat "$tmp/out" >&2; fail "no timeout class of 2 with its smallest input"; }
exit 0
