#!/bin/sh
# CLI tests: golden cases, then scripts.
#
# Golden cases: tests/cli/cases/*.t, one file per kpath command (check.t,
# coverage.t, ...; main.t for what comes before a command: --version, an
# unknown command).  A case is:
#
#     === NAME
#     $ kpath ARGS
#     stdout:
#     | a line kpath prints on stdout
#     |
#     | (the line before is empty)
#     stderr:
#     | a line on stderr
#     \ no newline at end
#     status: 2
#
# ARGS is one line, run from the repository root with sh quoting, stdin
# /dev/null.  Under stdout: and stderr: each line of the expected stream is
# "| " and the line ("|" alone for an empty line); "\ no newline at end"
# after the last one means the stream ends without a newline.  A stream
# whose section is missing must be empty; a missing status: means 0.  Lines
# before the first case are the file's preamble (comments: "# ..."); blank
# lines separate cases.  A failure reads "FAIL FILE:LINE NAME: ..." (LINE:
# the case's === line) with a diff of what was expected and what came.
#
# UPDATE=1 sh tests/cli/run.sh rewrites every case's expected stdout, stderr
# and status from what kpath does now (keeping each file's preamble, names
# and commands), for an intended change: review it with git diff.
#
# Then each tests/cli/scripts/*.sh runs (see the loop at the end).  Prints
# "N passed, N failed" and fails on any failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${KPATH:=$root/build/kpath}"
: "${UPDATE:=}"
cd "$root" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
mkdir "$tmp/c"

# Split every case file into $tmp/c/N.{meta,args,out,err,status} (meta:
# "FILE LINE NAME"), cases numbered from 1 in file order; $tmp/c/fF.pre: the
# preamble of the F-th file.
ncases=0 nfiles=0
for t in tests/cli/cases/*.t; do
    [ -e "$t" ] || continue
    nfiles=$((nfiles + 1))
    LC_ALL=C awk -v file="$t" -v dir="$tmp/c" -v n="$ncases" -v pre="$tmp/c/f$nfiles.pre" '
    function fail(why) { printf "%s:%d: %s\n", file, FNR, why > "/dev/stderr"; bad = 1; exit 1 }
    function end_section() {
        if (sect != "" && pend) printf "\n" > (base "." sect)
        sect = ""; pend = 0
    }
    function end_case() {
        end_section()
        if (!started) return
        if (!have_args) fail("case " name " has no \"$ kpath ARGS\" line")
        printf "%s\n", status > (base ".status")
        close(base ".out"); close(base ".err"); close(base ".status"); close(base ".args")
    }
    BEGIN { first = n; printf "" > pre }
    /^=== / {
        end_case()
        n++; name = substr($0, 5); base = dir "/" n; have_args = 0; status = 0; started = 1
        if (name == "" || name ~ /[ \t]/) fail("a case name is one word")
        printf "%s %d %s\n", file, FNR, name > (base ".meta"); close(base ".meta")
        printf "" > (base ".out"); printf "" > (base ".err")
        next
    }
    !started { print > pre; next }
    /^\$ kpath / {
        if (have_args || sect != "") fail("\"$ kpath\" once, right after the === line")
        printf "%s\n", substr($0, 9) > (base ".args"); have_args = 1; next
    }
    /^stdout:$/ || /^stderr:$/ {
        end_section(); sect = substr($0, 4, 3); next
    }
    /^\|/ {
        if (sect == "") fail("a \"|\" line outside stdout: or stderr:")
        if ($0 != "|" && substr($0, 2, 1) != " ") fail("\"|\" is followed by a space")
        if (pend) printf "\n" > (base "." sect)
        printf "%s", substr($0, 3) > (base "." sect); pend = 1; next
    }
    /^\\ no newline at end$/ {
        if (!pend) fail("\"\\ no newline at end\" after no line")
        pend = 0; next
    }
    /^status: [0-9]+$/ { end_section(); status = substr($0, 9); next }
    /^$/ { end_section(); next }
    /^#/ { fail("comments go before the first case (UPDATE=1 keeps only those)") }
    { fail("not a line of a case: " $0) }
    END { if (!bad) { end_case(); close(pre); print n - first > (dir "/count") } }
    ' "$t" || exit 2
    ncases=$((ncases + $(cat "$tmp/c/count")))
    echo "$t" >>"$tmp/files"
done

# "| line" per line of file $1, then the mark when it ends without a newline.
encode() {
    [ -s "$1" ] || return 0
    echo "$2:"
    LC_ALL=C awk '{ print ($0 == "" ? "|" : "| " $0) }' "$1"
    [ -z "$(tail -c 1 "$1")" ] || printf '%s\n' '\ no newline at end'
}

i=1
while [ -f "$tmp/c/$i.meta" ]; do
    read -r file line name <"$tmp/c/$i.meta"
    args=$(cat "$tmp/c/$i.args")
    eval "set -- $args"
    "$KPATH" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    status=$?
    want_status=$(cat "$tmp/c/$i.status")
    ok=1
    if ! cmp -s "$tmp/out" "$tmp/c/$i.out"; then
        echo "FAIL $file:$line $name: stdout differs:"; diff "$tmp/c/$i.out" "$tmp/out" | head -20; ok=0
    fi
    if ! cmp -s "$tmp/err" "$tmp/c/$i.err"; then
        echo "FAIL $file:$line $name: stderr differs:"; diff "$tmp/c/$i.err" "$tmp/err" | head -20; ok=0
    fi
    if [ "$status" != "$want_status" ]; then
        echo "FAIL $file:$line $name: exit status $status, expected $want_status"; ok=0
    fi
    if [ -n "$UPDATE" ]; then
        {
            echo "=== $name"
            echo "\$ kpath $args"
            encode "$tmp/out" stdout
            encode "$tmp/err" stderr
            echo "status: $status"
            echo
        } >>"$tmp/$(echo "$file" | tr / _).new"
        ok=1
    fi
    if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
    i=$((i + 1))
done

if [ -n "$UPDATE" ]; then
    f=0
    while read -r t; do
        f=$((f + 1))
        new="$tmp/$(echo "$t" | tr / _).new"
        touch "$new"
        # The preamble, then the cases without the blank line after the last.
        { cat "$tmp/c/f$f.pre"; sed '$d' "$new"; } >"$tmp/updated"
        cmp -s "$tmp/updated" "$t" || { cp "$tmp/updated" "$t"; echo "updated $t"; }
    done <"$tmp/files"
fi

# Scripted tests: tests/cli/scripts/NAME.sh, run from the repository root with
# $KPATH set; exit status 0 is a pass.  Their output is shown when they fail.
for script in "$here"/scripts/*.sh; do
    [ -e "$script" ] || continue
    name=scripts/$(basename "$script" .sh)
    if KPATH="$KPATH" sh "$script" >"$tmp/script-out" 2>&1 </dev/null; then
        passed=$((passed + 1))
    else
        echo "FAIL $name (exit status $?):"; tail -n 30 "$tmp/script-out"
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
