cover --strategy random grammars/expr.ebnf
