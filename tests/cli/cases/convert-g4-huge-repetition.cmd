convert --to g4 tests/grammars/ok/huge-repetition.ebnf
