dup --depth 0 tests/grammars/contexts/numbers.ebnf '<factor>' 4
