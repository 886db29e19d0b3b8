check tests/grammars/bad/empty-alternative.ebnf
