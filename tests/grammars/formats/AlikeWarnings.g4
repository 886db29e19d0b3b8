// Several rules alike in what kpath cannot follow (tests/cli/cases/
// g4-alike-warnings): one warning per kind, at the first rule, naming the
// rules; a kind said of one rule keeps its own sentence.
grammar AlikeWarnings;
s : (A | B | tag | list)* ;
tag : OPEN X* (GT | SLASH_GT | BANG_GT) ;
list : LB X* (RB | RP) ;
A : 'a' -> type(LETTER) ;
B : 'b' -> type(LETTER) ;
OPEN : '<' -> pushMode(IN) ;
WS : ' ' -> skip ;
CMT : '#' -> skip, pushMode(IN) ;
mode OTHER;
LB : '[' -> pushMode(IN), type(BRACKET) ;
mode IN;
X : 'x' ;
GT : '>' -> popMode ;
SLASH_GT : '/>' -> popMode ;
BANG_GT : '!>' -> popMode ;
IN_WS : '\t' -> skip ;
mode ORPHAN;
RB : ']' -> popMode ;
RP : ')' -> popMode ;
