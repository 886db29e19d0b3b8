dup --max-new-rules 5 tests/grammars/contexts/numbers.ebnf '<factor>' 4
