pattern --json grammars/expr.ebnf 'AddExpr_0 "+"_10'
