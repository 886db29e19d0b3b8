coverage -k 0 grammars/expr.ebnf tests/samples/expr/valid/add.txt
