check tests/grammars/bad/unclosed-group-at-end.ebnf
