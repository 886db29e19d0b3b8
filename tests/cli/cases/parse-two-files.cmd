parse grammars/expr.ebnf tests/samples/expr/valid/add.txt tests/samples/expr/valid/add.txt
