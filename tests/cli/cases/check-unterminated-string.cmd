check tests/grammars/bad/unterminated-string.ebnf
