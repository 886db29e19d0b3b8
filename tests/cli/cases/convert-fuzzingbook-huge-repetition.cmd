convert --to fuzzingbook tests/grammars/ok/huge-repetition.ebnf
