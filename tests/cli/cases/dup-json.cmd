dup --json --depth 1 tests/grammars/contexts/numbers.ebnf '<factor>' 4
