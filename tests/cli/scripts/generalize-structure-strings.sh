#!/bin/sh
# kpath generalize --structure learns what a string's contents may be
# (each printable ASCII character, two non-ASCII ones, each escape asked as
# a string's contents), against an oracle whose language is known exactly
# (tests/subjects/lang.c):
#   jsonesc  jsonlite with JSON's strings in ASCII: S = "\"" (C | "\\" E
#            | "\\u" [0-9A-Fa-f]{4})* "\"", C printable ASCII but '"' and
#            '\', E one of " \ / b f n r t
#            from {"a":[1,"b c",true],"d":{"e":null}}
# The sample's strings hold letters and a space only: the learned grammar
# must take punctuation, every escape and \u with four hex digits, and no
# other escape, no non-ASCII character, no lone backslash.  Soundness and
# completeness as in generalize-structure.sh.  The goldens come from the
# definition above.
. tests/cli/generalize_structure_lib.sh

learn jsonesc '{"a":[1,"b c",true],"d":{"e":null}}'
recursive jsonesc
members jsonesc '"#!~"' '"\n\t\"\\\/"' '"\u00AFx\uFFFF"' '{"%&":"\b\f\r"}' '""' '["<>",{"?":"="}]'
non_members jsonesc '"\x"' '"\u12"' '"\uGGGG"' '"é"' '"\"' '"a"b"' '"\"'
sound jsonesc
complete jsonesc 'V := "{" (S ":" V ("," S ":" V)*)? "}" | "[" (V ("," V)*)? "]" | S | [0-9]+
     | "true" | "null";
S := "\"" (C | "\\" E | "\\u" H{4})* "\"";
C := [ !#-\[\]-~];
E := [\"/\\bfnrt];
H := [0-9A-Fa-f];'
grep -q '^#: strings: [0-9]* probes of a string'"'"'s contents: accepted structure queries #' \
    "$tmp/jsonesc.ebnf" || fail "jsonesc: no note for the string's contents"
exit 0
