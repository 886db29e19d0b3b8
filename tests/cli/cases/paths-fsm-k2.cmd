paths -k 2 grammars/fsm.ebnf
