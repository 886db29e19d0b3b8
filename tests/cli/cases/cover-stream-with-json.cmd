cover --stream --json grammars/expr.ebnf
