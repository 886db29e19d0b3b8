coverage -k 3 grammars/expr.ebnf tests/samples/expr/valid
