#!/bin/sh
# A lexer rule that matches the empty text and changes the mode is a token
# where no rule matches more, as in ANTLR's lexer: golang's
# `OTHER: -> mode(DEFAULT_MODE), channel(HIDDEN)` leaves the mode NLSEMI
# (entered after an identifier or a ')', where a newline is a statement's
# end) wherever none of its tokens fits.  Before, kpath's lexer refused
# every empty match: `f()` was "no token matches here" at the '(' (every
# grammars-v4 golang example).  Expectations by hand, confirmed with
# ANTLR 4.13 (generated Java parser, tests/bench/antlr_check's checker): it
# accepts the two good samples and rejects the three bad ones where said.
. tests/cli/g4_samples_lib.sh
cat >"$tmp/SemiLexer.g4" <<'G'
lexer grammar SemiLexer;
ID: [a-z]+ -> mode(NLSEMI);
LP: '(';
RP: ')' -> mode(NLSEMI);
WS: [ \t\r\n]+ -> channel(HIDDEN);
mode NLSEMI;
WS_NLSEMI: [ \t]+ -> channel(HIDDEN);
EOS: ([\r\n]+ | ';') -> mode(DEFAULT_MODE);
OTHER: -> mode(DEFAULT_MODE), channel(HIDDEN);
G
cat >"$tmp/SemiParser.g4" <<'G'
parser grammar SemiParser;
options { tokenVocab = SemiLexer; }
prog: stmt* EOF;
stmt: ID LP RP EOS;
G
g=$tmp/SemiParser.g4

# Accepted: after `f` (mode NLSEMI) the '(' fits no NLSEMI token: OTHER,
# empty, returns to the default mode, where '(' is LP.
accepted 'f()\ng ( );' 'f()\n\n'

bad 'f()' 1:4 "no parse: unexpected end of input; expected EOS"
# The newline after `f` is EOS (mode NLSEMI), where LP must come.
bad 'f\n()\n' 1:2 "no parse: unexpected EOS '\\n'; expected '('"
bad 'f() g();' 1:5 "no parse: unexpected ID 'g'; expected EOS"

# Empty tokens that only change the mode, round and round, match nothing:
# refused where they start (ANTLR's lexer would loop forever).
cat >"$tmp/Loop.g4" <<'G'
lexer grammar Loop;
A: 'a';
TO_B: -> mode(B), skip;
mode B;
TO_A: -> mode(DEFAULT_MODE), skip;
G
g=$tmp/Loop.g4
bad 'aab' 1:3 "no token matches here: 'b'"
exit 0
