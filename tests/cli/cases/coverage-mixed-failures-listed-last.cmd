coverage -k 1 grammars/expr.ebnf tests/samples/expr/invalid/space.txt no/such/file tests/samples/expr/valid/add.txt tests/samples/expr/invalid/unclosed.txt tests/samples/expr/valid/nested.txt
