#!/bin/sh
# Issue 38 item 11: a single-file -o killed mid-write leaves .OUT.PID-N.tmp;
# the next write to the same OUT removes those of processes that no longer
# run, and leaves those of a running process (it may be writing now) and of
# other files alone.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
dead=$(sh -c 'echo $$')
: >"$tmp/.out.ebnf.$dead-0.tmp"
: >"$tmp/.out.ebnf.$dead-7.tmp"
: >"$tmp/.out.ebnf.$$-0.tmp"
: >"$tmp/.other.ebnf.$dead-0.tmp"
"$KPATH" convert --to ebnf -o "$tmp/out.ebnf" grammars/expr.ebnf || fail "convert: exit status $?"
[ -e "$tmp/.out.ebnf.$dead-0.tmp" ] && fail "a dead process's temporary file is left"
[ -e "$tmp/.out.ebnf.$dead-7.tmp" ] && fail "a dead process's second temporary file is left"
[ -e "$tmp/.out.ebnf.$$-0.tmp" ] || fail "a running process's temporary file was removed"
[ -e "$tmp/.other.ebnf.$dead-0.tmp" ] || fail "another file's temporary file was removed"
exit 0
