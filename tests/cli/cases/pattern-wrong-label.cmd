pattern grammars/expr.ebnf AddExpr_0 AddExpr_10
