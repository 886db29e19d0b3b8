check tests/grammars/bad/unterminated-name.ebnf
