bonsai --max-depth 0 grammars/expr.ebnf
