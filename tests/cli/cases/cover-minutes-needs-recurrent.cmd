cover --minutes 1 grammars/expr.ebnf
