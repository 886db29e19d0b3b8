gen -o grammars grammars/expr.ebnf
