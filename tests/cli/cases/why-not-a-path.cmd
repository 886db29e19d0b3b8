why grammars/expr.ebnf 'AddExpr_0 UnaryExpr_8'
