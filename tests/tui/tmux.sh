#!/bin/sh
# End-to-end test of the explorer in a real terminal: a detached tmux server
# (its own socket, no config) runs kpath; keys go in with send-keys and the
# screen comes back with capture-pane.  Covers what script mode bypasses:
# curses, readline (Tab completion, history kept across runs), resizing
# (also with the command line open), quitting with a question, SIGTERM with
# an autosave that the next start offers to restore, crashes and fatal
# signals giving the terminal back, Ctrl-C, :run stopped by
# Esc (its runs killed), T's runs in the features view stopped by Esc (the
# same, and only complete records left), Z's shrink stopped by Esc (its run
# killed), :generalize stopped by Esc (its
# queries killed), a sample's minutes-long parse stopped by a key, and the
# terminal given back each time.  Skipped with a
# message when tmux is missing.
set -u
if ! command -v tmux >/dev/null 2>&1; then
    echo "skipped: tmux is not installed, so the end-to-end test did not run"
    exit 0
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${KPATH:=$root/build/kpath}"
tmp=$(mktemp -d)
sock=kpath-e2e-$$
cleanup() {
    tmux -L "$sock" kill-server >/dev/null 2>&1
    rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/home" "$tmp/state"
cd "$root" || exit 2

fail() {
    echo "FAIL: $*"
    echo "--- screen:"
    tmux -L "$sock" capture-pane -p -t e2e 2>/dev/null
    exit 1
}

# start [ARGS]: kpath (on expr.ebnf unless ARGS say otherwise) in a fresh
# session, 100x30 unless W and H are set
start() {
    tmux -L "$sock" kill-server >/dev/null 2>&1
    rm -f "$tmp/exit" "$tmp/stty"
    args=${*:-grammars/expr.ebnf}
    # a server that was just killed may still be going away: try again
    tries=0
    until tmux -L "$sock" -f /dev/null new-session -d -s e2e -x "${W:-100}" -y "${H:-30}" \
        "env TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 HOME=$tmp/home INPUTRC=/dev/null \
             TZ=UTC XDG_STATE_HOME=$tmp/state XDG_CONFIG_HOME=$tmp/config \
             $KPATH $args; st=\$?; stty -a >$tmp/stty 2>&1; echo EXIT=\$st >$tmp/exit; \
             echo SHELL-AGAIN; sleep 60"; do
        tries=$((tries + 1))
        [ $tries -lt 20 ] || fail "cannot start tmux"
        sleep 0.2
    done
    wait_for "? help" "the first screen"
}

# wait_for TEXT WHAT: until the screen shows TEXT (20 s at most).  -J joins
# wrapped lines: what the shell prints after kpath ends wraps at a column
# that depends on the length of the paths in it.
wait_for() {
    i=0
    while [ $i -lt 200 ]; do
        if tmux -L "$sock" capture-pane -p -J -t e2e 2>/dev/null | grep -qF -- "$1"; then
            return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    fail "waited for $2: '$1'"
}

wait_exit() {
    i=0
    while [ $i -lt 200 ] && [ ! -f "$tmp/exit" ]; do
        sleep 0.1
        i=$((i + 1))
    done
    [ -f "$tmp/exit" ] || fail "kpath did not exit ($1)"
    got=$(cat "$tmp/exit")
    [ "$got" = "EXIT=$2" ] || fail "$1: exit status ${got#EXIT=}, expected $2"
    wait_for "SHELL-AGAIN" "the shell after $1"
    # the terminal is back: no explorer on the screen any more
    if tmux -L "$sock" capture-pane -p -t e2e | grep -qF "? help"; then
        fail "$1: the explorer is still on the screen"
    fi
}

keys() {
    tmux -L "$sock" send-keys -t e2e "$@"
}

# ---- a session: commands, completion, a run, resizing, help, quitting ------
start
keys : 'k 3' Enter
wait_for "k=3: 523 k-paths, 0 covered" ":k 3"
keys : 'sam' Tab
wait_for ":samples" "Tab completing a command name"
keys 'tests/tui/samples/expr/x-pl' Tab
wait_for ":samples tests/tui/samples/expr/x-plus-42.txt" "Tab completing a file name"
keys Enter
wait_for "1 sample added" ":samples"
keys : Up
wait_for ":samples tests/tui/samples/expr/x-plus-42.txt" "history (Up)"
keys Escape
keys r
wait_for "523/523 100.0%" "r: run to full coverage"
wait_for "done: " "the end of the run"
# resizing: too small, then back; and with the command line open
tmux -L "$sock" resize-window -t e2e -x 50 -y 12
wait_for "Terminal too small (50x12)" "the too-small message"
tmux -L "$sock" resize-window -t e2e -x 100 -y 30
wait_for "1 Grammar graph" "the panes after growing again"
keys : 'k 2'
tmux -L "$sock" resize-window -t e2e -x 90 -y 26
wait_for ":k 2" "the command line after a resize"
keys Enter
wait_for "k=2: 125 k-paths" ":k 2 typed across a resize"
tmux -L "$sock" resize-window -t e2e -x 100 -y 30
# a long run: the screen stays live (a resize redraws it, the progress line
# goes on), and any key stops it
keys : 'k 7' Enter
wait_for "k=7: 194733 k-paths" ":k 7"
keys r
wait_for "running: " "the progress line of a long run"
tmux -L "$sock" resize-window -t e2e -x 96 -y 28
wait_for "running: " "the progress line after a resize"
keys x
wait_for "stopped: " "stopping the run with a key"
tmux -L "$sock" resize-window -t e2e -x 100 -y 30
keys '?'
wait_for "Help: keys and commands" "the help overlay"
keys Escape
keys q
wait_for "Quit anyway? (y/n)" "the question about unsaved work"
keys y
wait_exit "q, y" 0
grep -q '^k 3$' "$tmp/state/kpath/history" || fail "the history file lacks 'k 3'"

# ---- SIGTERM: the work is autosaved; the next start offers it back --------
start
keys : 'k 3' Enter
keys S
wait_for "1 input" "stepping to a first input"
sleep 0.2
pid=$(pgrep -n -f "$KPATH grammars/expr.ebnf") || fail "no kpath process"
kill -TERM "$pid"
wait_exit "SIGTERM" 143
ls "$tmp/state/kpath/"autosave-expr.ebnf-*.kpw >/dev/null 2>&1 || fail "no autosave after SIGTERM"
start
wait_for "Restore it? (y/n)" "the offer to restore the autosave"
keys y
wait_for "restored the autosaved session" "restoring the autosave"
wait_for "k=3" "k from the autosave"
# ---- Ctrl-C quits like q, asking first -------------------------------------
keys C-c
wait_for "Quit anyway? (y/n)" "Ctrl-C with unsaved work"
keys y
wait_exit "Ctrl-C, y" 0

# ---- Ctrl-C twice in a row leaves at once, whatever the delay between -----
start
keys : 'gen 2' Enter
wait_for "2 inputs" ":gen 2"
keys C-c
wait_for "Quit anyway? (y/n)" "the first Ctrl-C"
sleep 0.4
keys C-c
wait_exit "Ctrl-C twice" 0

# ---- autosave: kill -9 right after a command, with --workspace and after
# :load; each time at a chosen point: when the autosave file is there -------
kill9() {
    pid=$(pgrep -n -f "$KPATH $1") || fail "no kpath process ($1)"
    kill -KILL "$pid"
    wait_for "SHELL-AGAIN" "the shell after kill -9"
}
wait_file() { # wait_file GLOB WHAT: until a file matches (20 s at most)
    i=0
    while [ $i -lt 200 ]; do
        # shellcheck disable=SC2086
        ls $1 >/dev/null 2>&1 && return 0
        sleep 0.1
        i=$((i + 1))
    done
    fail "waited for $2: $1"
}
# wait_procs N PATTERN FAILURE: until exactly N processes match PATTERN
# (10 s at most to reach a count above 0; 2 s for none left, which is what
# stopping a job with its process groups must achieve at once)
wait_procs() {
    i=0
    limit=100
    [ "$1" -gt 0 ] || limit=20
    until [ "$(pgrep -c -f "$2")" = "$1" ]; do
        i=$((i + 1))
        [ $i -lt $limit ] || fail "$3"
        sleep 0.1
    done
}
rm -f "$tmp/state/kpath/"autosave-*
printf 'kpath-workspace 1\ngrammar "grammars/expr.ebnf"\nk 2\nend\n' >"$tmp/w.kpw"
start --workspace "$tmp/w.kpw"
keys : 'gen 3' Enter
wait_for "3 inputs" ":gen 3 in a workspace"
wait_file "$tmp/state/kpath/autosave-w.kpw-*.kpw" "the autosave of the workspace"
kill9 "--workspace"
start --workspace "$tmp/w.kpw"
wait_for "An autosaved session of this workspace" "the offer after kill -9 (workspace)"
keys y
wait_for "restored the autosaved session: 3 inputs" "restoring the workspace's autosave"
keys : 'q!' Enter
wait_exit ":q!" 0
rm -f "$tmp/state/kpath/"autosave-*
start
keys : 'load grammars/json.ebnf' Enter
wait_for "loaded grammars/json.ebnf" ":load"
keys : 'gen 2' Enter
wait_for "2 inputs" ":gen 2 on json"
wait_file "$tmp/state/kpath/autosave-json.ebnf-*.kpw" "the autosave filed under json.ebnf"
ls "$tmp/state/kpath/"autosave-expr.ebnf-* >/dev/null 2>&1 && fail "an autosave is still filed under expr.ebnf"
kill9 "grammars/expr.ebnf"
start grammars/json.ebnf
wait_for "An autosaved session of this grammar" "the offer on json after :load and kill -9"
keys n
wait_for "autosave discarded" "n discards"
keys q
wait_exit "q" 0

# ---- restoring a big autosave is a sliced job (issue 17.10): the screen
# shows how far it is, and a key is answered between two slices; restored
# in one piece, the screen would keep the question until the end, and the
# key would land on the restored session.  The autosave: 30,000 inputs to
# parse, filed where the explorer files the session of expr.ebnf (the
# SHA-256 of the grammar's real path) -------------------------------------
rm -f "$tmp/state/kpath/"autosave-*
real=$(realpath grammars/expr.ebnf)
hash=$(printf '%s' "$real" | sha256sum | cut -c1-12)
awk 'BEGIN {print "kpath-workspace 1"; print "grammar \"grammars/expr.ebnf\""; print "k 2"
            for (i = 0; i < 30000; i++) printf "input \"x+%d*(y-%d)\"\n", i, i % 97
            print "end"}' >"$tmp/big.kpw"
cp "$tmp/big.kpw" "$tmp/state/kpath/autosave-expr.ebnf-$hash.kpw"
start
wait_for "An autosaved session of this grammar" "the offer of the big autosave"
keys y
wait_for "restoring the autosave: " "the progress line of restoring a big autosave"
keys j
wait_for "% (q quits and keeps it; 1 other key ignored)" \
    "a key answered between two slices of the restore"
keys j
wait_for "% (q quits and keeps it; 2 other keys ignored)" "a second key answered"
wait_for "restored the autosaved session: 30000 inputs" "the end of the restore"
keys : 'q!' Enter
wait_exit ":q! after the restore" 0
# q in the middle of a restore quits at once and keeps the autosave as it
# was (a clean quit removes it), so the next start offers it again; cmp
# checks it is the same file, byte for byte
cp "$tmp/big.kpw" "$tmp/state/kpath/autosave-expr.ebnf-$hash.kpw"
start
wait_for "An autosaved session of this grammar" "the offer of the big autosave, again"
keys y
wait_for "restoring the autosave: " "the progress line, again"
keys q
wait_exit "q while restoring" 0
cmp -s "$tmp/big.kpw" "$tmp/state/kpath/autosave-expr.ebnf-$hash.kpw" ||
    fail "q while restoring did not keep the autosave as it was"

# ---- at 80x24 the stepper shows and takes the keys after s ------------------
W=80 H=24 start
keys s
wait_for " 4 Stepper " "the stepper after s at 80x24"
wait_for "? help  q quit" "help and quit on the tab bar at 80x24"
keys q
wait_exit "q at 80x24" 0

# ---- a crash gives the terminal back: keypad and cursor keys normal -------
for sig in SEGV ABRT BUS FPE ILL; do
    start
    [ "$(tmux -L "$sock" display -p -t e2e '#{keypad_cursor_flag}#{keypad_flag}')" = 11 ] ||
        fail "curses did not turn on keypad mode (the test needs it to see the reset)"
    pid=$(pgrep -n -f "$KPATH grammars/expr.ebnf") || fail "no kpath process"
    kill -$sig "$pid"
    wait_for "SHELL-AGAIN" "the shell after SIG$sig"
    wait_for "kpath: crashed; the terminal was restored" "the crash message (SIG$sig)"
    modes=$(tmux -L "$sock" display -p -t e2e '#{keypad_cursor_flag}#{keypad_flag}')
    [ "$modes" = 00 ] || fail "after SIG$sig: application cursor/keypad modes are '$modes', not 00"
done
# ---- :run: the runs go on as a job, Esc stops them and kills every run's ---
# process group, so nothing the program started stays behind
start --start Expr grammars/arith.ebnf
keys : 'samples tests/tui/samples/calc' Enter
wait_for "7 samples added" ":samples"
keys : "run --timeout 60 -j 2 --results $tmp/r.jsonl -- sh -c 'sleep 97; exit 0'" Enter
wait_for "running sh: 0 of 7 inputs, 0 failed (any key stops)" "the progress line of :run"
wait_procs 2 '^sleep 97$' ":run did not start two runs at once (-j 2)"
keys Escape
wait_for "stopped: 0 of 7 runs recorded in $tmp/r.jsonl" "Esc stopping :run"
wait_procs 0 '^sleep 97$' "a run's sleep outlived Esc"
[ "$(wc -l <"$tmp/r.jsonl")" = 1 ] || fail "records of stopped runs in the results"
keys q
wait_for "Quit anyway? (y/n)" "q after :run (the workspace names its results now)"
keys y
wait_exit "q after :run" 0

# ---- T's runs: the features view's T generates inputs and runs them as the
# last :run did (a job); Esc stops them, kills every run's process group and
# leaves only complete records in the results file.  The subject sleeps
# only once $tmp/slow exists, so the samples' runs end and T's do not.
start --start Expr grammars/arith.ebnf
keys : 'samples tests/tui/samples/calc' Enter
wait_for "7 samples added" ":samples before T"
rm -f "$tmp/slow"
keys : "run --timeout 60 -j 2 --results $tmp/t.jsonl -- sh -c 'test -e $tmp/slow && exec sleep 96; grep -q [*] && exit 3; exit 0'" Enter
wait_for "ran: 7 of 7 runs recorded in $tmp/t.jsonl, 2 failed" "the samples' runs"
keys w
wait_for "behaviour features: 2, 2 trainable" "learning from the samples' runs"
wait_for "exit:3" "the failure exit:3 listed (first)"
touch "$tmp/slow"
keys T
wait_procs 2 '^sleep 96$' "T did not run two of its inputs at once (-j 2, as :run)"
keys Escape
wait_procs 0 '^sleep 96$' "a run of T's outlived Esc"
wait_for "0 of 10 new inputs reach exit:3 (10 not run: stopped)" "the message of T's stopped runs"
# the results: the header and the samples' seven records, each complete
[ "$(wc -l <"$tmp/t.jsonl")" = 8 ] || fail "T's stopped runs left records: $(wc -l <"$tmp/t.jsonl") lines"
[ "$(tail -c 1 "$tmp/t.jsonl" | od -An -c | tr -d ' ')" = '\n' ] || fail "a partial last record"
"$KPATH" run --report "$tmp/t.jsonl" -k 1 -q --start Expr grammars/arith.ebnf >/dev/null 2>&1 ||
    fail "kpath cannot read the results after T was stopped"
keys M
wait_for "stopped: 0 of 10 runs recorded in $tmp/t.jsonl" "the stop in the message log"
keys Escape
keys : 'q!' Enter
wait_exit "q! after T" 0

# ---- Z: the shrink of a failed run's input is a job; Esc stops it and kills
# the run under way with its process group.  The subject fails (exit 3) on
# the one sample with a "/" (1/0, input 6), and sleeps once $tmp/slow3
# exists, so the samples' runs end and the shrink's first run does not.
start --start Expr grammars/arith.ebnf
keys : 'samples tests/tui/samples/calc' Enter
wait_for "7 samples added" ":samples before Z"
rm -f "$tmp/slow3"
keys : "run --timeout 60 --results $tmp/z.jsonl -- sh -c 'test -e $tmp/slow3 && exec sleep 95; grep -q / && exit 3; exit 0'" Enter
wait_for "ran: 7 of 7 runs recorded in $tmp/z.jsonl, 1 failed" "the samples' runs before Z"
touch "$tmp/slow3"
keys Z
wait_for "shrinking input 6: 3 -> 3 bytes so far, 0 runs (any key stops)" "the status line of Z"
wait_procs 1 '^sleep 95$' "Z did not run the input"
keys Escape
wait_procs 0 '^sleep 95$' "the shrink's run outlived Esc"
wait_for "shrink of input 6 stopped after 0 runs: nothing smaller found yet" "Esc stopping Z"
keys : 'q!' Enter
wait_exit "q! after Z" 0

# ---- the runs report and learning are jobs: any key stops them ---------------
# 20 runs of inputs of 48,000 characters each: parsing them for the report
# (and again for learning) takes seconds, long enough to see the progress
# line and stop it with a key
mkdir -p "$tmp/big"
awk 'BEGIN {for (i = 0; i < 4000; i++) printf "(1+2*3-4/5)*"; print "7"}' >"$tmp/big/1.txt"
for i in $(seq 2 20); do cp "$tmp/big/1.txt" "$tmp/big/$i.txt"; done
"$KPATH" run --start Expr grammars/arith.ebnf "$tmp/big" --results "$tmp/big.jsonl" -q -- true \
    >/dev/null 2>&1 || fail "kpath run of the big inputs"
printf ':save %s\n' "$tmp/big.kpw" >"$tmp/save.script"
"$KPATH" --script "$tmp/save.script" --start Expr grammars/arith.ebnf >/dev/null 2>&1 ||
    fail "saving a workspace"
sed -i "/^end\$/i results \"$tmp/big.jsonl\"" "$tmp/big.kpw"
start --start Expr grammars/arith.ebnf
keys : "open $tmp/big.kpw" Enter
keys 5 b
wait_for "report of the runs: " "the progress line of the runs report"
keys j
wait_for "report stopped by a key" "a key stopping the runs report"
wait_for "b twice computes it again" "the message of the stopped report"
keys w
wait_for "learning: reading the inputs of the runs" "the progress line of learning"
keys j
wait_for "learning stopped by a key" "a key stopping learning"
keys q
wait_exit "q after stopping the jobs" 0

# ---- :generalize: a sliced job, Esc stops it and kills every query's group --
start --start Expr grammars/arith.ebnf
keys : "generalize -j 2 --timeout 60 tests/tui/samples/calc -- sh -c 'sleep 98; exit 0'" Enter
wait_for "generalizing: 0 queries, the samples (any key stops)" "the progress line of :generalize"
wait_procs 2 '^sleep 98$' ":generalize did not ask two inputs at once (-j 2)"
keys Escape
wait_for "generalization stopped: 0 queries (0 accepted), 0 changes kept" "Esc stopping :generalize"
wait_procs 0 '^sleep 98$' "a query's sleep outlived Esc"
wait_for "grammars/arith.ebnf, stopped: 0 queries (0 accepted), 0 changes" "the view after Esc"
keys Escape
wait_for "? help" "the panes after closing the view"
keys q
wait_exit "q after :generalize" 0

# ---- a sample whose parse takes minutes: a key stops it ----------------------
# S := S S | "a" on 3,000 a's has a cubic forest (minutes of parsing, one
# step of the :samples job): the status line names the file once it has
# taken a second, and a key stops the parse itself, not only the job after it.
printf 'S := S S | "a";\n' >"$tmp/ambiguous.ebnf"
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "a" }' >"$tmp/slow.txt"
start "$tmp/ambiguous.ebnf"
keys : "samples $tmp/slow.txt" Enter
wait_for "s on $tmp/slow.txt" "the status line naming the slow sample"
keys x
# The file was not read to its end: not done and not failed (no "1 failed"),
# and where it stopped is a note.
wait_for "stopped after 0 of 1 files, in $tmp/slow.txt at 1:" "a key stopping the parse of a sample"
if tmux -L "$sock" capture-pane -p -J -t e2e | grep -q "failed"; then
    fail "a stopped sample counted as failed"
fi
keys M
wait_for "slow.txt:1:" "the log"
wait_for "note: parsing stopped here, as asked" "where the parse stopped, in the log"
keys Escape q
wait_exit "q after stopping a parse" 0

# ---- a crash or a fatal signal gives the terminal back (issue 38) ----------
# kpath killed by a signal: the shell's modes again (what `stty -a` says
# right after, in the pane), the main screen, keypad and mouse reporting
# off (tmux's flags for the pane), and the exit status of the signal.  The
# autosave of before the signal is whole: the next start restores it.
# terminal_back WHAT: the checks, once kpath is gone
terminal_back() {
    for mode in icanon echo icrnl isig opost; do
        grep -qE "(^| )$mode( |$)" "$tmp/stty" || fail "$1: '$mode' is off after kpath ($(cat "$tmp/stty"))"
    done
    flags=$(tmux -L "$sock" display -p -t e2e \
        '#{alternate_on} #{keypad_flag} #{keypad_cursor_flag} #{mouse_any_flag} #{mouse_sgr_flag}')
    [ "$flags" = "0 0 0 0 0" ] ||
        fail "$1: alternate screen, keypad, cursor keys, mouse, SGR mouse: $flags, expected 0 0 0 0 0"
}
# (signal numbers as on Linux)
for sn in SEGV:11 ABRT:6 BUS:7 QUIT:3 USR1:10 ALRM:14 PIPE:13; do
    sig=${sn%:*}
    rm -f "$tmp/state/kpath/"autosave-*
    start
    flags=$(tmux -L "$sock" display -p -t e2e '#{alternate_on} #{keypad_flag} #{mouse_any_flag}')
    [ "$flags" = "1 1 1" ] || fail "before SIG$sig: alternate screen, keypad, mouse: $flags (the check would prove nothing)"
    keys : 'k 3' Enter
    keys S
    wait_for "1 input" "stepping to a first input (SIG$sig)"
    wait_file "$tmp/state/kpath/autosave-expr.ebnf-*.kpw" "the autosave before SIG$sig"
    pid=$(pgrep -n -f "$KPATH grammars/expr.ebnf") || fail "no kpath process"
    kill -"$sig" "$pid"
    wait_exit "SIG$sig" "$((128 + ${sn#*:}))"
    terminal_back "SIG$sig"
done
# the autosave of before the last signal comes back whole
start
wait_for "Restore it? (y/n)" "the offer to restore the autosave after a signal"
keys y
wait_for "restored the autosaved session: 1 input" "restoring the autosave after a signal"
wait_for "k=3" "k from the autosave after a signal"
keys : 'q!' Enter
wait_exit ":q! after restoring" 0
terminal_back ":q!"
# SIGTERM and SIGHUP: the loop autosaves and ends (exit 128 + the signal)
for sn in TERM:15 HUP:1; do
    sig=${sn%:*}
    start
    pid=$(pgrep -n -f "$KPATH grammars/expr.ebnf") || fail "no kpath process"
    kill -"$sig" "$pid"
    wait_exit "SIG$sig" "$((128 + ${sn#*:}))"
    terminal_back "SIG$sig"
done

echo "tmux end-to-end test passed"
