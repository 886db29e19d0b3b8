check tests/grammars/bad/unclosed-group.ebnf
