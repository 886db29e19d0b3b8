coverage -k 2 grammars/expr.ebnf tests/samples/expr/valid/add.txt
