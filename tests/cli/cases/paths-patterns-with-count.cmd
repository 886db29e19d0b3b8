paths --patterns --count grammars/expr.ebnf
