pattern --ids grammars/expr.ebnf AddExpr_0 10
