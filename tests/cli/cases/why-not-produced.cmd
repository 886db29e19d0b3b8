why grammars/expr.ebnf 'AddExpr_0 "-"_11'
