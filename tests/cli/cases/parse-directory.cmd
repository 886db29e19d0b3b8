parse grammars/expr.ebnf tests/samples/expr
