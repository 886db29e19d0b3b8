parse grammars/expr.ebnf
