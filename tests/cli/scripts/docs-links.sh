#!/bin/sh
# Every relative link of README.md, NEWS.md and docs/**/*.md names a file
# that exists (relative to the file the link is in; an #anchor is left
# off), so moving a guide cannot leave a link dangling.  Links with a scheme
# (https:, mailto:) and in-page anchors (#...) are not checked.
set -u
bad=0 links=0
for doc in README.md NEWS.md $(find docs -name '*.md' | LC_ALL=C sort); do
    [ -f "$doc" ] || continue
    dir=$(dirname "$doc")
    # ](target) outside code spans and blocks, one per line of output
    for target in $(awk '
        /^```/ { code = !code; next }
        code { next }
        {
            line = $0
            gsub(/`[^`]*`/, "", line)
            while (match(line, /\]\([^) ]+\)/)) {
                print substr(line, RSTART + 2, RLENGTH - 3)
                line = substr(line, RSTART + RLENGTH)
            }
        }' "$doc"); do
        case $target in
        *:* | \#*) continue ;;
        esac
        links=$((links + 1))
        path=${target%%#*}
        [ -e "$dir/$path" ] && continue
        echo "$doc: link to $target: no such file"
        bad=1
    done
done
echo "$links relative links checked"
[ "$links" -gt 0 ] && [ "$bad" = 0 ]
