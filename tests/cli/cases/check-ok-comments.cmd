check tests/grammars/ok/comments.ebnf
