dup tests/grammars/contexts/numbers.ebnf '<factor>' 4
