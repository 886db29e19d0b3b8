#!/bin/sh
# Issue 38 item 9: every grammar reader counts lines alike (base/line_end.h):
# a line ends at LF, at CR LF and at a lone CR, so "\n\r" is two line ends.
# Each grammar has an undefined reference on its third line, written with
# each layout; the position is worked out by hand from the LF layout (the
# .ebnf reader's, which counted lone CRs already, says the same).  Before,
# the .json, .fan, .tribble and .g4 readers put a lone-CR file on one line (or
# swallowed it in a comment), and "\n\r" shifted columns by one.  Last, the
# .json reader refuses a byte that is not UTF-8, at its FILE:LINE:COL, as the
# others do.
set -u
: "${KPATH:?KPATH must name the kpath binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# write FILE EOL TEXT: TEXT with each "|" made the line end EOL (awk reads
# the escapes \n and \r in EOL)
write() { printf '%s' "$3" | awk -v eol="$2" 'BEGIN { RS = "\001" } { gsub(/\|/, eol); printf "%s", $0 }' >"$1"; }
# line 3, col: B in "A := B;", <b> in "<a> ::= <b>", <b> in ' "<a>": ["x<b>"]}', b in "a = b ;",
# b in "s : b ;"
for layout in lf cr crlf lfcr; do
    case $layout in
    lf) eol='\n' line=3 ;;
    cr) eol='\r' line=3 ;;
    crlf) eol='\r\n' line=3 ;;
    lfcr) eol='\n\r' line=5 ;; # two line ends each time
    esac
    write "$tmp/g-$layout.ebnf" "$eol" '# c|S := A;|A := B;|'
    write "$tmp/g-$layout.fan" "$eol" '# c|<start> ::= <a>|<a> ::= <b>|'
    write "$tmp/g-$layout.json" "$eol" '{|"<start>": ["<a>"],| "<a>": ["x<b>"]}'
    write "$tmp/g-$layout.tribble" "$eol" '// c|s = a ;|a = b ;|'
    write "$tmp/g-$layout.g4" "$eol" 'grammar g;|// c|s : b ;|'
    for want in "ebnf:$line:6:'B'" "fan:$line:9:'<b>'" "json:$line:12:'<b>'" "tribble:$line:5:'b'" "g4:$line:5:'b'"; do
        ext=${want%%:*} rest=${want#*:}
        pos=${rest%:*} name=${rest##*:}
        f=$tmp/g-$layout.$ext
        "$KPATH" check "$f" >/dev/null 2>"$tmp/err"
        [ $? = 2 ] || fail "$layout .$ext: exit status not 2"
        head -n 1 "$tmp/err" | grep -qxF "$f:$pos: error: undefined rule $name" ||
            { cat "$tmp/err" >&2; fail "$layout .$ext: expected $f:$pos: error: undefined rule $name"; }
    done
done

# Not UTF-8: byte 0xFF on line 2 (after a lone CR), column 15 of
# '"<start>": ["a?"]}'; refused, and cover writes nothing.
printf '{\r"<start>": ["a\377"]}\n' >"$tmp/bad.json"
"$KPATH" check "$tmp/bad.json" >/dev/null 2>"$tmp/err"
[ $? = 2 ] || fail "bad.json: exit status not 2"
grep -qxF "$tmp/bad.json:2:15: error: invalid UTF-8 byte 0xFF" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "bad.json: no FILE:LINE:COL for the invalid byte"; }
"$KPATH" cover -k 1 "$tmp/bad.json" -o "$tmp/out" 2>/dev/null
[ $? = 2 ] || fail "cover bad.json: exit status not 2"
[ ! -e "$tmp/out" ] || fail "cover bad.json wrote something"
# the same byte in an .ebnf file: the same message at the same place
printf '#\rS := "a\377";\n' >"$tmp/bad.ebnf"
"$KPATH" check "$tmp/bad.ebnf" >/dev/null 2>"$tmp/err"
grep -qxF "$tmp/bad.ebnf:2:8: error: invalid UTF-8 byte 0xFF" "$tmp/err" ||
    { cat "$tmp/err" >&2; fail "bad.ebnf: the .ebnf reader says otherwise"; }
exit 0
