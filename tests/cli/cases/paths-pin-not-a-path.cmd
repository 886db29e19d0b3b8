paths --pin 'AddExpr_0 UnaryExpr_8' grammars/expr.ebnf
