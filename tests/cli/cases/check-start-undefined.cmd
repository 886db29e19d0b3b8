check --start Nope grammars/expr.ebnf
