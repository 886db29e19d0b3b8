pattern grammars/expr.ebnf 'AddExpr_0 -> "+"_10'
