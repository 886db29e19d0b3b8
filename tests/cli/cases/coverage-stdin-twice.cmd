coverage grammars/expr.ebnf - -
