reduce --suffix .in grammars/expr.ebnf tests/samples/expr/valid
