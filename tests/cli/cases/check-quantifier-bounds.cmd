check tests/grammars/bad/quantifier-bounds.ebnf
