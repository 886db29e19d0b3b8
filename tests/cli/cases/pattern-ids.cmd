pattern --ids grammars/expr.ebnf 0 10
