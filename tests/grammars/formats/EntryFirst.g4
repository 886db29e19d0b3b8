// Written for kpath's tests: the first parser rule ends with EOF, so it is
// the start rule even though another rule uses it and a later rule is an
// unused one ending with EOF (as grammars-v4's Hive: `statement` first,
// used by a prepare statement; `hint` later).
grammar EntryFirst;

stmt : 'run' NAME EOF ;
prepare : 'prepare' stmt ;
hint : NAME EOF ;

NAME : [a-z]+ ;
WS : ' ' -> skip ;
