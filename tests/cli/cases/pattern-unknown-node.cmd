pattern grammars/expr.ebnf AddExpr_0 Foo_3
