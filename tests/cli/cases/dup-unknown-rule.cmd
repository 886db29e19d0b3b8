dup tests/grammars/contexts/numbers.ebnf '<number>' 1
