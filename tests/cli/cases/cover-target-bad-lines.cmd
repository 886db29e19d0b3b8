cover --target tests/grammars/targets/expr-bad.txt grammars/expr.ebnf
