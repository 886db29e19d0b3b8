check tests/grammars/bad/weight-both.ebnf
