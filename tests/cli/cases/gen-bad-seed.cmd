gen --seed 18446744073709551616 grammars/expr.ebnf
