explain grammars/expr.ebnf grammars/expr.ebnf
