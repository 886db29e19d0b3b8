#!/bin/sh
# No command's --help lists an option twice (explain and target listed
# --any-file twice: once of their own and once from the shared sample
# options), and neither does the bash completion made from the same tables.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
commands=$("$KPATH" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 { print $1 }')
[ -n "$commands" ] || fail "no commands in --help"
n=0
for c in $commands; do
    # an option line: 2 to 6 spaces, then "-x, --name" or "--name", then
    # its value's name or the help text (prose that mentions an option
    # elsewhere is indented further or follows other words)
    twice=$("$KPATH" "$c" --help |
        awk 'match($0, /^ {2,6}(-[A-Za-z0-9], )?--[a-z0-9-]+( [A-Z]|  |$)/) {
                 o = substr($0, 1, RLENGTH); sub(/^ *(-[A-Za-z0-9], )?/, "", o); sub(/ .*/, "", o); print o }' |
        sort | uniq -d)
    [ -z "$twice" ] || fail "kpath $c --help lists more than once: $twice"
    n=$((n + 1))
done
[ "$n" -ge 20 ] || fail "only $n commands checked"
# the completion: each command's word list of options, no word twice
"$KPATH" --completion bash | sed -n 's/^ *\([a-z-]*\)) opts="\(.*\)" ;;$/\1 \2/p' |
while read -r cmd words; do
    twice=$(printf '%s\n' $words | sort | uniq -d)
    [ -z "$twice" ] || { echo "FAIL: completion of $cmd lists twice: $twice" >&2; exit 1; }
done || exit 1
