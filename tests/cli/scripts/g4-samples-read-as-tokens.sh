#!/bin/sh
# A sample of an ANTLR grammar is read as ANTLR reads it: its lexer splits
# it into tokens first (longest match, the earlier rule winning a tie), then
# the parser rules read the tokens (src/parse/token_bounds.h).  Before, the
# character-level grammar read more: `ifx;` as the keyword and an ID, `ab`
# as two IDs run together, a `//` comment ending in the middle of a line.
# Expectations worked out by hand from ANTLR's rules and confirmed with
# ANTLR 4.13 (the generated Java parser of Kw.g4, with
# tests/bench/antlr_check/KpathAntlrCheck.java): it accepts the five good
# samples and rejects the six bad ones.
. tests/cli/g4_samples_lib.sh
cat >"$tmp/Kw.g4" <<'G'
grammar Kw;
prog: stmt+ EOF;
stmt: 'if' ID ';' | 'int' ID ID ';' | '[' NUM* ']';
ID: [a-z]+;
NUM: [0-9]+;
LINE_COMMENT: '//' .*? ('\n' | EOF) -> skip;
WS: [ \t\r\n]+ -> skip;
G
g=$tmp/Kw.g4

# Accepted: blanks and comments between tokens, a comment up to its line end.
accepted 'if x;' 'if x; int a b;' '[1// c\n]' 'if x; // c\nif y;' 'if x; // to the end'

# `ifx` is one ID (longest match), not the keyword 'if' and x.
bad 'ifx;' 1:1 "no parse: unexpected ID 'ifx'; expected one of 'if', 'int', '['"
# Keyword and identifier run together: `intab` is one ID.
bad 'intab c;' 1:1 "no parse: unexpected ID 'intab'; expected one of 'if', 'int', '['"
# Two identifiers run together are one: `ab` is one ID, then ';' comes early.
bad 'int ab;' 1:7 "no parse: unexpected token ';'; expected ID"
# A line comment runs to the line end: here it swallows the ']'.
bad '[1// c ]' 1:9 "no parse: unexpected end of input; expected one of ']', NUM"
bad 'if x;\nif y// c ;' 2:11 "no parse: unexpected end of input; expected ';'"
# No token rule matches '#': rejected by the lexer, where the text starts.
bad 'if x; # if y;' 1:7 "no token matches here: '# if y;'"

exit 0
