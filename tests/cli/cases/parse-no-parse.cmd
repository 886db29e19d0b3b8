parse grammars/expr.ebnf tests/samples/expr/invalid/close-paren.txt
