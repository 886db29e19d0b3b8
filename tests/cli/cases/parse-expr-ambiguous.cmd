parse --symbolic grammars/expr.ebnf tests/samples/expr/valid/four-minus.txt
