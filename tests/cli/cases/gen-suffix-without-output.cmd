gen --suffix .in grammars/expr.ebnf
