paths -k 2 --ids grammars/fsm.ebnf
