// Written for kpath's tests (kpath info marks it): two semantic predicates
// (5:10 in a parser rule, 7:14 in a lexer rule) and one action (5:32),
// which ANTLR runs and kpath does not.
grammar Predicates;
s : ID | {allowed()}? NUM | ID {count++;} NUM ;
ID : [a-z]+ ;
NUM : [0-9]+ {small()}? ;
WS : ' ' -> skip ;
