check tests/grammars/bad/several.ebnf
