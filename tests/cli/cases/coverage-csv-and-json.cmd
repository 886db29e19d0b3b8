coverage --growth --csv --json grammars/expr.ebnf tests/samples/expr/valid/add.txt
