gen --strategy fast grammars/expr.ebnf
