#!/bin/sh
# No program under test outlives its run or kpath (issue 38 item 4):
#  - a daemon (fork, setsid, fork: it leaves its run's process group and
#    session) started by a run is killed at the end of the run and reported;
#  - when kpath run, check-oracle or generalize is killed (SIGKILL, or
#    SIGUSR1 or SIGALRM that it does not handle) while a program and its
#    child run, both die and the run directories go;
#  - run directories of kpath processes that are gone (their lock free) are
#    removed when kpath starts; one whose lock is held stays.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
hostile=$(dirname "$KPATH")/tests/subjects/hostile
[ -x "$hostile" ] || fail "no $hostile (make subjects)"
tmp=$(mktemp -d) || exit 1
holder=
trap '[ -n "$holder" ] && kill "$holder" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir "$tmp/in" "$tmp/runs"
g=grammars/expr.ebnf

# alive PID: it runs (a zombie is dead)
alive() {
    state=$(ps -o stat= -p "$1" 2>/dev/null)
    case $state in '' | Z*) return 1 ;; *) return 0 ;; esac
}
# gone PID...: each dies within 5 s
gone() {
    for pid in "$@"; do
        i=0
        while alive "$pid"; do
            i=$((i + 1))
            [ $i -gt 100 ] && { kill -9 "$pid"; return 1; }
            sleep 0.05
        done
    done
    return 0
}
# wait_for FILE: until it exists (10 s)
wait_for() {
    i=0
    while [ ! -s "$1" ]; do
        i=$((i + 1))
        [ $i -gt 200 ] && return 1
        sleep 0.05
    done
}

# A daemon started by a normal run.
printf 'daemon %s' "$tmp/daemon.pid" >"$tmp/in/a-daemon"
printf 'exit 0' >"$tmp/in/b-exit0"
TMPDIR=$tmp/runs "$KPATH" run -q -j 1 --results "$tmp/r.jsonl" $g "$tmp/in" -- "$hostile" \
    >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; fail "daemon: exit status $?"; }
[ -s "$tmp/daemon.pid" ] || fail "the daemon never ran"
gone "$(cat "$tmp/daemon.pid")" || fail "the daemon $(cat "$tmp/daemon.pid") outlived its run"
grep -qxF "kpath run: warning: 1 process left its run's process group (setsid: a daemon?) and was killed when its run ended" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "the escaped daemon is not reported"; }
[ -z "$(ls -A "$tmp/runs")" ] || fail "run directories left: $(ls "$tmp/runs")"

# kill_under SIGNAL NAME KPATH-ARGS...: start kpath with a program that
# forks a child and hangs, kill kpath with SIGNAL once the child runs.
kill_under() {
    sig=$1 name=$2
    shift 2
    rm -f "$tmp/child.pid"
    TMPDIR=$tmp/runs "$KPATH" "$@" >/dev/null 2>&1 &
    kp=$!
    wait_for "$tmp/child.pid" || { kill -9 $kp; fail "$name: the program's child never ran"; }
    prog=$(ps -o pid= --ppid $kp | head -1 | tr -d ' ')
    child=$(cat "$tmp/child.pid")
    kill -"$sig" $kp
    wait $kp 2>/dev/null
    gone "$child" || fail "$name: the program's child $child outlived kpath"
    [ -z "$prog" ] || gone "$prog" || fail "$name: the program $prog outlived kpath"
    i=0
    while [ -n "$(ls -A "$tmp/runs")" ]; do
        i=$((i + 1))
        [ $i -gt 100 ] && fail "$name: run directories left: $(ls "$tmp/runs")"
        sleep 0.05
    done
}
rm -rf "$tmp/in"
mkdir "$tmp/in"
printf 'fork-hang %s' "$tmp/child.pid" >"$tmp/in/hang"
rm -f "$tmp/r.jsonl"
kill_under KILL "run, SIGKILL" run -q --timeout 60 --results "$tmp/r.jsonl" $g "$tmp/in" -- "$hostile"
rm -f "$tmp/r.jsonl"
kill_under USR1 "run, SIGUSR1" run -q --timeout 60 --results "$tmp/r.jsonl" $g "$tmp/in" -- "$hostile"
# check-oracle: the oracle is a shell whose child forks and hangs.
kill_under KILL "check-oracle, SIGKILL" check-oracle $g -k 1 -j 1 --timeout 60 -o "$tmp/co" -- \
    sh -c "echo 'fork-hang $tmp/child.pid' | '$hostile'"
# generalize: its membership queries, the same.
kill_under ALRM "generalize, SIGALRM" generalize tests/lattices/digits.ebnf tests/lattices/digits.txt \
    -o "$tmp/gen.ebnf" -j 1 --timeout 60 -- sh -c "echo 'fork-hang $tmp/child.pid' | '$hostile'"

# Stale run directories: one of a dead kpath (its lock free) goes, one whose
# lock is held stays.
mkdir -p "$tmp/runs/kpath-run-1-stale/1/cwd/deep/er" "$tmp/runs/kpath-run-2-held/1/cwd"
: >"$tmp/runs/kpath-run-1-stale/lock"
: >"$tmp/runs/kpath-run-2-held/lock"
chmod 0500 "$tmp/runs/kpath-run-1-stale/1/cwd/deep"
flock "$tmp/runs/kpath-run-2-held/lock" sleep 60 &
holder=$!
sleep 0.2
printf 'exit 0' >"$tmp/in/hang"
rm -f "$tmp/r.jsonl"
TMPDIR=$tmp/runs "$KPATH" run -q --results "$tmp/r.jsonl" $g "$tmp/in" -- "$hostile" >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err" >&2; fail "stale: exit status $?"; }
[ ! -e "$tmp/runs/kpath-run-1-stale" ] || fail "the stale run directory stayed"
[ -d "$tmp/runs/kpath-run-2-held/1/cwd" ] || fail "a run directory in use was removed"
kill "$holder"
holder=
exit 0
