paths -k 2 --patterns grammars/expr.ebnf
