paths -k 2 --start q2 --count grammars/fsm.ebnf
