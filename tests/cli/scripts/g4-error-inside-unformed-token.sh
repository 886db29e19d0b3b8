#!/bin/sh
# A failed parse of an ANTLR grammar's sample is reported where its tokens
# stop fitting, not where the character-level reading of a token the lexer
# never formed runs out.  Inside a token the parser derives characters
# freely and checks the token's bounds at its end (src/parse/token_bounds.h),
# so a `/*` that the lexer reads as '/' and '*' (no `*/` follows) was read
# on as a comment to the end of the text, and every such error was reported
# there: "unexpected end of input; expected one of [\u{0}-\u{10FFFF}], '*/'".
# Expectations by hand, from ANTLR's lexer: COMMENT needs its `*/`, so at a
# lone `/*` the longest match is the implicit token '/', then '*'.
. tests/cli/g4_samples_lib.sh
cat >"$tmp/Calc.g4" <<'G'
grammar Calc;
prog: stmt+ EOF;
stmt: ID '=' expr ';';
expr: ID (('*' | '/') ID)*;
ID: [a-z]+;
COMMENT: '/*' .*? '*/' -> skip;
WS: [ \t\r\n]+ -> skip;
G
g=$tmp/Calc.g4

# Accepted: comments between any two tokens.
accepted 'a = b;' 'a = b/*c*/;\nd = e / f;' 'a = b * /* c */ d; /**/'

# `/*c;` has no `*/`: tokens b '/' '*' c ';', and after '/' an ID must come.
bad 'a = b /*c;\nd = e;\n' 1:8 "no parse: unexpected token '*'; expected ID"
# The same on the second line, after a comment that does close.
bad 'a = b/*c*/;\nd = e /* f;\n' 2:8 "no parse: unexpected token '*'; expected ID"
# `*/` outside a comment is '*' then '/': after '*' an ID must come.  (A
# comment from the earlier `/*` to this `*/` is one the lexer never forms.)
bad 'a = b / c; /* x */ d = e */ f;\n' 1:27 "no parse: unexpected token '/'; expected ID"
# The comment closes, and ';' comes where the ID after '*' should.
bad 'a = b * /* c */ ;' 1:17 "no parse: unexpected token ';'; expected ID"
# Where the tokens do reach the end, the end of input is the error.
bad 'a = b' 1:6 "no parse: unexpected end of input; expected one of ';', '*', '/'"
# `kpath coverage` (a parse that records k-paths per set) says the same.
printf 'a = b /*c;\nd = e;\n' >"$tmp/s"
"$KPATH" coverage -k 2 "$g" "$tmp/s" >/dev/null 2>"$tmp/err"
grep -qxF "$tmp/s:1:8: error: no parse: unexpected token '*'; expected ID" "$tmp/err" ||
    fail "coverage: $(cat "$tmp/err")"
exit 0
