dup grammars/expr.ebnf UnaryExpr 7
