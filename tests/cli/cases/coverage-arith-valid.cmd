coverage -k 3 --start Expr grammars/arith.ebnf tests/samples/arith/valid
