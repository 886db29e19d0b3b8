check tests/grammars/bad/unexpected-character.ebnf
