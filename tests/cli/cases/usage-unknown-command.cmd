frobnicate grammars/expr.ebnf
