coverage tests/grammars/bad/missing-semicolon.ebnf tests/samples/expr/valid/add.txt
