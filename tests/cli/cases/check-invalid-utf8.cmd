check tests/grammars/bad/invalid-utf8.ebnf
