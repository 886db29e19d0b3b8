#!/bin/sh
# make screenshots: run each screenshots/NAME.script in script mode (from
# the repository root, at 100x30 unless the script's "#! args:" says
# otherwise) and let it write screenshots/NAME.svg with :svg.  The pictures
# are drawn by kpath itself, in the theme's colours: no terminal, no
# external tools.
set -eu
kpath=$1
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
for script in screenshots/*.script; do
    name=$(basename "$script" .script)
    args=$(sed -n 's/^#! args: *//p' "$script")
    # shellcheck disable=SC2086
    env -i PATH="$PATH" TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 HOME="$home" \
        INPUTRC=/dev/null TZ=UTC XDG_STATE_HOME="$home" XDG_CONFIG_HOME="$home" \
        "$kpath" --script "$script" $args grammars/expr.ebnf
    echo "screenshots/$name.svg"
done
