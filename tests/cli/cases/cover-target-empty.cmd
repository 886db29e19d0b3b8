cover --target tests/grammars/targets/empty.txt grammars/expr.ebnf
