#!/bin/sh
# Grammar and sample files are read only when they are regular files; a
# device (/dev/zero), a FIFO or /dev/stdin on a pipe is refused before it is
# opened, with exit status 2 and an error naming the file and --any-file,
# and read (up to its size limit) when --any-file asks for it.  A directory
# is never a grammar; as a sample it is walked (its regular files only).
# '-' is standard input, asked for explicitly: always read.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
writer=
trap '[ -z "$writer" ] || kill "$writer" 2>/dev/null; rm -rf "$tmp"' EXIT
mkfifo "$tmp/fifo" "$tmp/samples-fifo" || fail "mkfifo"
mkdir "$tmp/samples" && mv "$tmp/samples-fifo" "$tmp/samples/fifo" || fail "mkdir"
printf '1+2' >"$tmp/samples/one.txt"
kind_error() { echo "$1: error: cannot read: $2, not a regular file (--any-file reads it)"; }

# expect STATUS STDERR-LINE COMMAND...: the status, stderr exactly that line
# (or empty when the line is ""), and no output on failure (but from
# coverage, which prints its totals over the samples it could read).
expect() {
    want_status=$1 want_err=$2
    shift 2
    timeout 20 "$KPATH" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    status=$?
    [ "$status" = "$want_status" ] || fail "$*: exit status $status, not $want_status: $(cat "$tmp/err")"
    if [ -n "$want_err" ]; then
        grep -qxF "$want_err" "$tmp/err" || fail "$*: stderr $(cat "$tmp/err")"
    fi
    [ "$want_status" = 0 ] || [ "$1" = coverage ] || [ ! -s "$tmp/out" ] || fail "$*: output on failure: $(head -c 200 "$tmp/out")"
}

# Grammar files.  Without the switch nothing is opened: the FIFO has no
# writer, so opening it would block (timeout would give 124).
expect 2 "$(kind_error /dev/zero 'a character device')" check /dev/zero
expect 2 "$(kind_error "$tmp/fifo" 'a pipe')" check "$tmp/fifo"
expect 2 "$(kind_error "$tmp/fifo" 'a pipe')" cover -k 1 "$tmp/fifo"
expect 2 "$tmp: error: cannot read: Is a directory" check "$tmp"
expect 2 "$tmp: error: cannot read: Is a directory" check --any-file "$tmp"
expect 2 "/dev/zero: error: input is more than 1024 bytes, the limit for a grammar file" \
    check --any-file --max-input-size 1K /dev/zero
cat grammars/expr.ebnf >"$tmp/fifo" & writer=$!
expect 0 "" check --any-file "$tmp/fifo"
wait "$writer"; writer=
cat grammars/expr.ebnf | "$KPATH" check /dev/stdin >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] || fail "check /dev/stdin on a pipe without --any-file: read"
grep -qxF "$(kind_error /dev/stdin 'a pipe')" "$tmp/err" || fail "check /dev/stdin: $(cat "$tmp/err")"
# A regular file behind /dev/stdin is a regular file.
"$KPATH" check /dev/stdin <grammars/expr.ebnf >"$tmp/out" 2>"$tmp/err" ||
    fail "check /dev/stdin <FILE: $(cat "$tmp/err")"

# Sample files: the same rule for parse and for commands that take many.
expect 2 "$(kind_error /dev/zero 'a character device')" parse grammars/expr.ebnf /dev/zero
expect 2 "$(kind_error "$tmp/fifo" 'a pipe')" parse grammars/expr.ebnf "$tmp/fifo"
expect 2 "$(kind_error /dev/zero 'a character device')" coverage grammars/expr.ebnf /dev/zero
expect 2 "$(kind_error "$tmp/fifo" 'a pipe')" coverage grammars/expr.ebnf "$tmp/fifo"
expect 2 "$(kind_error /dev/zero 'a character device')" learn -o "$tmp/learned" grammars/expr.ebnf /dev/zero
expect 2 "/dev/zero: error: input is more than 1024 bytes, the limit (--max-input-size)" \
    parse --any-file --max-input-size 1K grammars/expr.ebnf /dev/zero
expect 2 "/dev/zero: error: input is more than 1024 bytes, the limit (--max-input-size)" \
    coverage --any-file --max-input-size 1K grammars/expr.ebnf /dev/zero
printf '1+2' >"$tmp/fifo" & writer=$!
expect 0 "" coverage --any-file grammars/expr.ebnf "$tmp/fifo"
wait "$writer"; writer=
grep -q "^$tmp/fifo: k=1 " "$tmp/out" || fail "coverage of a FIFO: $(cat "$tmp/out")"
# A directory of samples: its regular files; the FIFO inside is skipped.
expect 0 "$tmp/samples/fifo: warning: not a regular file, skipped" coverage grammars/expr.ebnf "$tmp/samples"
grep -q "^$tmp/samples/one.txt: k=1 " "$tmp/out" || fail "coverage of a directory: $(cat "$tmp/out")"
expect 2 "$tmp: error: cannot read: Is a directory" parse grammars/expr.ebnf "$tmp"
# '-' needs no switch.
printf '1+2' | "$KPATH" parse grammars/expr.ebnf - >"$tmp/out" 2>"$tmp/err" || fail "parse -: $(cat "$tmp/err")"

# --help says it, for grammar-only and sample commands alike.
for cmd in check cover parse coverage run; do
    "$KPATH" "$cmd" --help | grep -q -- '--any-file' || fail "$cmd --help does not list --any-file"
done
exit 0
