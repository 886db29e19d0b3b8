check tests/grammars/bad/weight-sum-below.ebnf
