cover -k 3 --target tests/grammars/targets/expr-three.txt grammars/expr.ebnf
