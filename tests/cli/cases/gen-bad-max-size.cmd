gen --max-size 0 grammars/expr.ebnf
