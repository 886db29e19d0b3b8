paths -k 2 --count grammars/expr.ebnf
