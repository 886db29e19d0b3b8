check tests/grammars/bad/stacked-quantifier.ebnf
