check tests/grammars/bad/weight-single.ebnf
