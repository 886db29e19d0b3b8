paths -k 1 --json --ids grammars/fsm.ebnf
