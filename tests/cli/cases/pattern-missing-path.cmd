pattern grammars/expr.ebnf
