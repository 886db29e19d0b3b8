dup tests/grammars/contexts/numbers.ebnf '<digit>' 3
