reduce -o tests/samples/expr/valid grammars/expr.ebnf tests/samples/expr/valid
