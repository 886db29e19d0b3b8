paths -k 3 --count grammars/fsm.ebnf
