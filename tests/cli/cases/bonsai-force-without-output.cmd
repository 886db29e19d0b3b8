bonsai --force grammars/expr.ebnf
