// Written for kpath's tests: two lexer modes with different skip tokens.
// Outside a tag a blank is skipped and a tab is a token; inside a tag
// (after '<', until '>') a tab is skipped and a blank is an error.
lexer grammar TagLexer;
WORD : [a-z]+ ;
TAB : '\t' ;
OPEN : '<' -> pushMode(TAG) ;
WS : ' '+ -> skip ;
mode TAG;
NAME : [a-z]+ ;
CLOSE : '>' -> popMode ;
TAG_WS : '\t'+ -> channel(HIDDEN) ;
