gen --force grammars/expr.ebnf
