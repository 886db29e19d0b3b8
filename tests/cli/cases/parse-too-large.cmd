parse --max-input-size 4 grammars/expr.ebnf tests/samples/expr/valid/mixed.txt
