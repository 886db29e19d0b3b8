paths -k 2 --count --pin 'UnaryExpr_15 AddExpr_36' grammars/expr.ebnf
