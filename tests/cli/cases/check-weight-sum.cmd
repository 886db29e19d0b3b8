check tests/grammars/bad/weight-sum.ebnf
