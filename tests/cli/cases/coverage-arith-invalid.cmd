coverage --start Expr grammars/arith.ebnf tests/samples/arith/invalid
