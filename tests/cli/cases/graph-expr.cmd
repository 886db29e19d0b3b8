graph grammars/expr.ebnf
