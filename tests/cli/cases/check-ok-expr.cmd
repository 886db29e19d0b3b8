check grammars/expr.ebnf
