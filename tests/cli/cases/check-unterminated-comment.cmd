check tests/grammars/bad/unterminated-comment.ebnf
