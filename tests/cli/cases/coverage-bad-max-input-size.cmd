coverage --max-input-size 0 grammars/expr.ebnf tests/samples/expr/valid/add.txt
