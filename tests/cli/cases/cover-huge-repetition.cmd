cover -k 1 tests/grammars/ok/huge-repetition.ebnf
