#!/bin/sh
# kpath coverage on a terminal (and learn and reduce): each file's line is shown as soon as the
# file is done (not when 64 KiB of report have gathered), and a file that
# takes long is named on a progress line that is cleared before the next
# result.  The slow file is a FIFO that nobody writes to until the test
# has seen the line, so nothing here depends on how fast the machine is:
# the test waits for what must appear (30 s at most), it never times the
# program.  Off a terminal nothing of the progress is written.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v script >/dev/null 2>&1 || { echo "coverage-progress: skipped, script(1) is missing"; exit 0; }
tmp=$(mktemp -d) || exit 1
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
g=grammars/expr.ebnf
printf 'x+42' >"$tmp/first.txt"
mkfifo "$tmp/slow.txt" || fail "mkfifo"

# wait_for FILE TEXT: until FILE holds TEXT (30 s at most)
wait_for() {
    i=0
    until grep -q "$2" "$1" 2>/dev/null; do
        i=$((i + 1))
        [ $i -lt 300 ] || { cat -v "$1" >&2; fail "never saw '$2'"; }
        sleep 0.1
    done
}

script -qec "\"$KPATH\" coverage --any-file -k 2 $g \"$tmp/first.txt\" \"$tmp/slow.txt\"" \
    /dev/null >"$tmp/tty.out" 2>&1 &
pid=$!
# The first file's result is on the screen while the second is waited for...
wait_for "$tmp/tty.out" "coverage: 1 file done; on $tmp/slow.txt for [0-9]* s"
grep -q "^$tmp/first.txt: k=1 12/39 (30.7%), k=2 12/125 (9.6%)" "$tmp/tty.out" ||
    { cat -v "$tmp/tty.out" >&2; fail "the first file's line is not shown before the second is done"; }
# ...which, once written, ends the run with the line cleared.
printf '1' >"$tmp/slow.txt"
wait $pid || fail "coverage on a terminal failed"
pid=
esc=$(printf '\033')
tr '\r' '\n' <"$tmp/tty.out" >"$tmp/lines"
grep -q "^$esc\[K$tmp/slow.txt: k=1 " "$tmp/lines" ||
    { cat -v "$tmp/tty.out" >&2; fail "the progress line is not cleared before the next result"; }
grep -q "^total (2 files): " "$tmp/lines" || { cat -v "$tmp/tty.out" >&2; fail "no total"; }

# learn and reduce read samples the same way and say the same.
for cmd in learn reduce; do
    script -qec "\"$KPATH\" $cmd --any-file $g \"$tmp/first.txt\" \"$tmp/slow.txt\"" \
        /dev/null >"$tmp/$cmd.out" 2>&1 &
    pid=$!
    wait_for "$tmp/$cmd.out" "$cmd: 1 file done; on $tmp/slow.txt for [0-9]* s"
    printf '1' >"$tmp/slow.txt"
    wait $pid || { cat -v "$tmp/$cmd.out" >&2; fail "$cmd on a terminal failed"; }
    pid=
done

# Off a terminal: no progress, however long a file takes.
"$KPATH" coverage --any-file -k 2 $g "$tmp/first.txt" "$tmp/slow.txt" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 1.5
printf '1' >"$tmp/slow.txt"
wait $pid || { cat "$tmp/err" >&2; fail "coverage off a terminal failed"; }
pid=
grep -q "file done\|files done" "$tmp/err" "$tmp/out" && fail "progress off a terminal"
[ "$(grep -c '^total (2 files)' "$tmp/out")" = 1 ] || fail "no total off a terminal"
exit 0
