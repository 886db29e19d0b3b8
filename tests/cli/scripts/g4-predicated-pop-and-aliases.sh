#!/bin/sh
# Three readings of ANTLR that JavaScript's template strings need (every
# grammars-v4 JavaScript and TypeScript file with a '}' and a blank after
# it was rejected):
#  - a parser literal names a lexer rule only as ANTLR aliases it: the rule
#    is the literal alone, or followed by one action or predicate, so
#    `TemplateCloseBrace: {pred}? '}' -> popMode;` is no '}', while
#    `CloseBrace: '}' {action};` is;
#  - a predicate that guards a popMode must be false where no mode was
#    pushed (ANTLR's lexer would fail on the pop): kpath's lexer, which
#    runs no predicate, takes the next rule there (CloseBrace);
#  - after a token, the skip tokens of the mode after any rule that counts
#    as it: BackTickInside, `type(BackTick)` and popMode, ends the template
#    that BackTick (pushMode) began, and a blank may follow it.
# Expectations by hand, confirmed with ANTLR 4.13 (generated Java parser,
# tests/bench/antlr_check's checker): it accepts the three good samples and
# rejects the three bad ones where said.
. tests/cli/g4_samples_lib.sh
cat >"$tmp/TplLexer.g4" <<'G'
lexer grammar TplLexer;
OpenBrace: '{';
TemplateCloseBrace: {!_modeStack.isEmpty()}? '}' -> popMode;
CloseBrace: '}' { };
BackTick: '`' -> pushMode(TEMPLATE);
ID: [a-z]+;
WS: [ \t\r\n]+ -> skip;
mode TEMPLATE;
BackTickInside: '`' -> type(BackTick), popMode;
StartExpr: '${' -> pushMode(DEFAULT_MODE);
Atom: ~[`$]+;
G
cat >"$tmp/TplParser.g4" <<'G'
parser grammar TplParser;
options { tokenVocab = TplLexer; }
prog: stmt* EOF;
stmt: '{' stmt* '}' | ID | tpl;
tpl: BackTick (Atom | StartExpr ID TemplateCloseBrace)* BackTick;
G
g=$tmp/TplParser.g4

# Accepted.  '{ a }' then a newline: the '}' is CloseBrace, after which the
# default mode's WS may come.  In a template, '}' closes '${' (a mode was
# pushed); the second '}' of '${a}}' is an Atom; after the closing '`' a
# blank.
accepted '{ a }\n{ }' '`x${a}y`' '{ `${a}}` }'

bad '}' 1:1 "no parse: unexpected CloseBrace '}'; expected one of '{', '\`', ID, end of input"
bad '{ a `' 1:6 "no parse: unexpected end of input; expected one of '\`', '\${', Atom"
bad '`${a` }' 1:5 "no parse: unexpected BackTick '\`'; expected '}'"
exit 0
