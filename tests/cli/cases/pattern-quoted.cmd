pattern --quoted grammars/expr.ebnf AddExpr_0 AddExpr_5 MultExpr_2 UnaryExpr_8 '"("_35'
