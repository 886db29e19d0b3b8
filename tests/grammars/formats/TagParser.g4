// Written for kpath's tests (see TagLexer.g4).
parser grammar TagParser;
options { tokenVocab = TagLexer; }
doc : (WORD | TAB | tag)* EOF ;
tag : OPEN NAME* CLOSE ;
