coverage --csv grammars/expr.ebnf tests/samples/expr/valid/add.txt
