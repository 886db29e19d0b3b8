gen --strategy random --close-off random grammars/expr.ebnf
