paths -k 0 grammars/expr.ebnf
