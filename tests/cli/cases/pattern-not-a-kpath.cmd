pattern grammars/expr.ebnf AddExpr_0 '"*"_23'
