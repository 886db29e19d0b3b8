generalize --valid-exit 256 grammars/expr.ebnf tests/explain/expr/bad.txt -- true
