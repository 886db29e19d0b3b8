check tests/grammars/bad/inverted-range.ebnf
