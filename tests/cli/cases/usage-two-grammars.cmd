graph grammars/expr.ebnf grammars/fsm.ebnf
