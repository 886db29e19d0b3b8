check tests/grammars/bad/unterminated-class.ebnf
