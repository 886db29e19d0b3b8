reduce grammars/expr.ebnf tests/samples/expr/valid tests/samples/expr/invalid/close-paren.txt
