dup tests/grammars/contexts/numbers.ebnf
