#!/bin/sh
# The examples of the documentation stay true.  Every ```console block of
# README.md and of every docs/**/*.md is run: each `$ COMMAND` line (with
# its `\` continuation lines) runs with sh, stdout and stderr together, and
# must print exactly the lines the doc shows after it, where a line `...` (indented or not) stands for
# any number of lines (none included).  A command the doc shows no output
# for is run (the commands after it may need what it made) but its output is
# not compared: the doc leaves it out.  Each block runs in a scratch directory of its own
# (its commands share it: `-o suite` then `cat suite/...`), holding links to
# grammars/, tests/ and build/ (the directory of $KPATH, with its subjects),
# with `kpath` on PATH being $KPATH.  Not run, and their output not compared:
# commands that start with `make` (the suite was built before it ran) or pipe
# into graphviz's `dot` (not a dependency of kpath).  A failing example is
# reported as FILE:LINE.  Each file named in `minimum` below must keep at
# least that many compared examples (so moving or dropping examples cannot
# quietly empty a guide of its tests), and all of them together at least
# $least (the README alone compared 32 before the guides moved to docs/).
set -u
least=40
minimum='
README.md 8
docs/commands.md 3
docs/generating.md 9
docs/program-under-test.md 6
docs/samples-and-coverage.md 13
docs/suites.md 1
'

: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
root=$(pwd)
[ -f "$root/README.md" ] || fail "run from the repository root"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/ex" || fail "mkdir"
ln -s "$KPATH" "$tmp/bin/kpath"
build=$(cd "$(dirname "$KPATH")" && pwd)

# One file per command, NNNN.cmd (the command, continuation lines and all),
# NNNN.exp (the lines shown after it), NNNN.at ("BLOCK LINE FILE": the block
# it is in, counted over all files, and its line in FILE).
docs=$(find docs -name '*.md' | LC_ALL=C sort)
awk -v dir="$tmp/ex" '
FNR == 1 { inblock = 0; cont = 0 }
function close_cmd() { if (cmd != "") { close(dir "/" cmd ".cmd"); close(dir "/" cmd ".exp") } }
/^```console[ \t]*$/ { inblock = 1; block++; cont = 0; next }
inblock && /^```/ { close_cmd(); cmd = ""; inblock = 0; next }
!inblock { next }
cont {
    print >> (dir "/" cmd ".cmd")
    cont = /\\$/
    next
}
/^\$ / {
    close_cmd()
    cmd = sprintf("%04d", ++n)
    print substr($0, 3) > (dir "/" cmd ".cmd")
    printf "" > (dir "/" cmd ".exp")
    print block, FNR, FILENAME > (dir "/" cmd ".at"); close(dir "/" cmd ".at")
    cont = /\\$/
    next
}
cmd != "" { print >> (dir "/" cmd ".exp") }
' README.md $docs

# Does ACTUAL match EXPECTED, `...` being any run of lines?  (A table over
# positions: small files, no backtracking blow-up.)
matches() {
    awk '
    FNR == 1 { f++ }
    f == 1 { e[++ne] = $0; next }
    { a[++na] = $0 }
    END {
        m[0, 0] = 1
        for (i = 0; i <= ne; i++)
            for (j = 0; j <= na; j++) {
                if (i == 0 && j == 0) continue
                v = 0
                if (i > 0 && e[i] ~ /^[ \t]*\.\.\.$/)
                    v = m[i - 1, j] || (j > 0 && m[i, j - 1])
                else if (i > 0 && j > 0 && e[i] == a[j])
                    v = m[i - 1, j - 1]
                m[i, j] = v
            }
        exit !m[ne, na]
    }' "$1" "$2"
}

total=0 ran=0 compared=0 failed=0 last_block=
: >"$tmp/compared"
for cmdfile in "$tmp"/ex/*.cmd; do
    [ -e "$cmdfile" ] || fail "no console block in README.md or docs/"
    base=${cmdfile%.cmd}
    read -r block line file <"$base.at"
    total=$((total + 1))
    if [ "$block" != "$last_block" ]; then
        work="$tmp/block$block"
        mkdir "$work" || fail "mkdir"
        ln -s "$root/grammars" "$root/tests" "$work/"
        ln -s "$build" "$work/build"
        last_block=$block
    fi
    case $(head -n 1 "$cmdfile") in
    make\ * | *=*make\ * | *\|\ dot\ *) continue ;;
    esac
    ran=$((ran + 1))
    (cd "$work" && PATH="$tmp/bin:$PATH" sh "$cmdfile") >"$base.out" 2>&1 </dev/null
    [ -s "$base.exp" ] || continue
    compared=$((compared + 1))
    echo "$file" >>"$tmp/compared"
    matches "$base.exp" "$base.out" && continue
    failed=$((failed + 1))
    echo "$file:$line: \$ $(head -n 1 "$cmdfile")"
    echo "  expected:"; sed 's/^/    /' "$base.exp"
    echo "  got:"; sed 's/^/    /' "$base.out" | head -n 40
done
sort "$tmp/compared" | uniq -c | awk '{ print "  " $2 ": " $1 " compared" }'
echo "$ran of $total commands of the docs run, $compared compared with the docs, $failed differ"
short=0
for want in $(echo "$minimum" | awk 'NF == 2 { print $1 ":" $2 }'); do
    file=${want%:*} want=${want##*:}
    got=$(grep -cx "$file" "$tmp/compared")
    [ "$got" -ge "$want" ] && continue
    echo "$file: $got examples compared, expected at least $want"
    short=1
done
[ "$compared" -ge "$least" ] || echo "only $compared examples compared, expected at least $least"
[ "$failed" = 0 ] && [ "$short" = 0 ] && [ "$compared" -ge "$least" ]
