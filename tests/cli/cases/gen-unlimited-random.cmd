gen --strategy random -n 0 grammars/expr.ebnf
