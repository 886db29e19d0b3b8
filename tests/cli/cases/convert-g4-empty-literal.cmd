convert --to g4 tests/grammars/ok/empty-literal.ebnf
