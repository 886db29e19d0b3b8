bonsai -o tests/samples/expr grammars/expr.ebnf
