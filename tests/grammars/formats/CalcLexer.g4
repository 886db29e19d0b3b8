// The lexer half of CalcParser (written for kpath's tests).
lexer grammar CalcLexer;
ASSIGN : '=' ;
SEMI : ';' ;
PLUS : '+' ;
LPAREN : '(' ;
RPAREN : ')' ;
NUMBER : DIGIT+ ;
NAME : [a-z]+ ;
fragment DIGIT : [0-9] ;
WS : [ \t\r\n]+ -> skip ;
COMMENT : '/*' .*? '*/' -> channel(HIDDEN) ;
