paths --count -k1 grammars/expr.ebnf
