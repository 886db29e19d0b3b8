#!/bin/sh
# The layers of ui/ (docs/design/ui.md), checked from the sources so
# they cannot silently regress.  From the bottom:
#   widget  screen, theme, keys, widget, plot, svg, lesson, command_table:
#           drawing pieces, file formats and file names, the key and command
#           tables; they know nothing of the app or the panes
#   pane    pane_*, request, generalize_view, runs (the runs view),
#           features (the behaviour features view), inputs_view (switching
#           between the inputs pane's views): draw and take keys
#           through struct pane_ops / struct overlay_ops, ask the app for
#           actions by returning a struct pane_request, never call the app;
#           with them messages (the message line, the log, questions) and
#           job (struct job_ops: running the current job by its contract)
#   app     from the bottom: session (struct ui set up, the workspace
#           swapped, focus, what panes ask for, autosave, quitting, theme),
#           app_jobs, generalize_job, runs_job, runs_shrink, features_job (the jobs),
#           overlays and lessons (what is shown over and under the panes),
#           search, draw (the frame), commands (the ':' line), app (key
#           dispatch, script lines, lesson steps, the requests' top)
#   front   term, script, tui: the front ends, which drive the app through
#           app.h; nothing below calls them
# A file may include the headers and call the (non-static) functions of its
# own layer and the layers below it, never above.  Also: only ui/term.c
# includes curses or readline (nothing in src/ does), every ui/*.c file is
# in a layer, and every one starts with a comment (its contract).
# POSIX sh, sed, awk and grep only.  Run from anywhere: sh tests/layers/run.sh
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2

layer_of() {
    case $1 in
    screen|theme|keys|widget|plot|svg|lesson|command_table) echo 0 ;;
    pane_*|request|generalize_view|runs|features|inputs_view|messages|job) echo 1 ;;
    app|app_jobs|commands|session|generalize_job|runs_job|runs_shrink|features_job|draw|overlays|lessons|search) echo 2 ;;
    term|script|tui) echo 3 ;;
    *) echo "" ;;
    esac
}
name_of() { case $1 in 0) echo widget ;; 1) echo pane ;; 2) echo app ;; 3) echo "front end" ;; esac; }

# Known exceptions, one per line: FILE FUNCTION-OR-HEADER (none left).
allowed='
'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAIL layers: $*"; failed=$((failed + 1)); }

# Sources without comments and string literals (a call named in a comment or
# a message is no call).
for f in ui/*.c; do
    awk -v stripped_only=1 -f tests/layers/strip.awk "$f" >"$tmp/$(basename "$f").code"
done

# Every file is in a layer and says what it is for.
for f in ui/*.c ui/*.h; do
    b=$(basename "$f"); b=${b%.*}
    [ -n "$(layer_of "$b")" ] || [ "${f%.h}" != "$f" ] || fail "$f is in no layer (tests/layers/run.sh)"
    head -n 1 "$f" | grep -q '^/\* ' || fail "$f does not start with a comment stating its contract"
done

# The functions each file defines (non-static, at the start of a line, the
# body on the next line): FILE NAME.
for f in ui/*.c; do
    b=$(basename "$f")
    awk -v file="$b" '
    /^[A-Za-z_]/ && !/^(static|typedef|extern|struct [a-z_]+ \{|enum|#)/ && !/;[ \t]*$/ {
        if (match($0, /[A-Za-z_][A-Za-z0-9_]*\(/)) {
            name = substr($0, RSTART, RLENGTH - 1); pending = name } else pending = ""
        next }
    /^\{/ && pending != "" { print file, pending; pending = ""; next }
    { pending = "" }' "$tmp/$b.code"
done >"$tmp/defs"
[ -s "$tmp/defs" ] || fail "found no function definitions (the check is broken)"
grep -q '^app.c ui_key$' "$tmp/defs" || fail "did not find ui_key in app.c (the check is broken)"

# Includes: no file includes a header of a layer above its own.
header_layer() {
    case $1 in
    ui.h|generalize_view.h|features_view.h|messages.h|job.h) echo 1 ;;
    app.h|app_jobs.h|session.h|runs_job.h|features_job.h|commands.h|draw.h|overlays.h|lessons.h|search.h) echo 2 ;;
    term.h|script.h|tui.h) echo 3 ;;
    widget.h|plot.h|svg.h|screen.h|theme.h|keys.h|lesson.h|command_table.h) echo 0 ;;
    *) echo -1 ;;
    esac
}
for f in ui/*.c ui/*.h; do
    b=$(basename "$f"); base=${b%.*}
    own=$(layer_of "$base")
    [ -n "$own" ] || own=$(header_layer "$b")
    for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
        hl=$(header_layer "$h")
        [ "$hl" -gt "$own" ] || continue
        printf '%s\n' "$allowed" | grep -qx "$b $h" && continue
        fail "$f ($(name_of "$own")) includes $h ($(name_of "$hl")): a layer above it"
    done
done

# Calls: no file calls a function defined in a file of a layer above its own.
for f in ui/*.c; do
    b=$(basename "$f"); own=$(layer_of "${b%.c}")
    while read -r file name; do
        [ "$file" = "$b" ] && continue
        fl=$(layer_of "${file%.c}")
        [ "$fl" -gt "$own" ] || continue
        printf '%s\n' "$allowed" | grep -qx "$b $name" && continue
        printf '%s\n' "$allowed" | grep -qx "$b app.h" && [ "$fl" = 2 ] && continue
        if grep -q "\\b$name *(" "$tmp/$b.code"; then
            fail "$f ($(name_of "$own")) calls $name of $file ($(name_of "$fl")): a layer above it"
        fi
    done <"$tmp/defs"
done

# curses and readline: in ui/term.c only.
for f in $(grep -rlE '#include *<(n?curses|ncursesw/curses|readline/[a-z]+)\.h>' src ui tests/unit 2>/dev/null); do
    [ "$f" = ui/term.c ] || fail "$f includes curses or readline (only ui/term.c may)"
done
grep -q '#include <curses.h>' ui/term.c || fail "ui/term.c no longer includes curses (update this check)"

if [ "$failed" = 0 ]; then
    echo "layers: ui/ reads top-down ($(wc -l <"$tmp/defs" | tr -d ' ') functions in $(ls ui/*.c | wc -l | tr -d ' ') files checked)"
fi
[ "$failed" = 0 ]
