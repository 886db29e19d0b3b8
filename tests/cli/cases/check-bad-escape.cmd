check tests/grammars/bad/bad-escape.ebnf
