run --report grammars/expr.ebnf
