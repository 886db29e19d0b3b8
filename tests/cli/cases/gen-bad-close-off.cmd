gen --close-off longest grammars/expr.ebnf
