run --lines grammars/expr.ebnf tests/samples/expr/valid -- true
