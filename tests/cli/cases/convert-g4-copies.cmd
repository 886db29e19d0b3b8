convert --to g4 tests/grammars/ok/copies.ebnf
