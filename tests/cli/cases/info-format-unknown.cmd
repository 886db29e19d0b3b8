info --format xml grammars/expr.ebnf
