reduce grammars/expr.ebnf tests/samples/expr/valid/add.txt tests/samples/expr/invalid tests/samples/expr/valid/nested.txt no/such/file
