check tests/grammars/bad/weight-range.ebnf
