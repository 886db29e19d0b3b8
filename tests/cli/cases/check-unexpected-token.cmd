check tests/grammars/bad/unexpected-token.ebnf
