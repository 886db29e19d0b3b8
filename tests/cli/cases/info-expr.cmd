info grammars/expr.ebnf
