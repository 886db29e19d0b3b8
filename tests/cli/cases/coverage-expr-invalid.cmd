coverage grammars/expr.ebnf tests/samples/expr/invalid
