run --timeout 0 grammars/expr.ebnf tests/samples/expr/valid -- true
