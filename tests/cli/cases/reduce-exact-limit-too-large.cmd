reduce --exact-limit 300 grammars/expr.ebnf tests/samples/expr/valid
