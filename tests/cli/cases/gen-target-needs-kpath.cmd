gen --strategy random --target tests/grammars/targets/expr-three.txt grammars/expr.ebnf
