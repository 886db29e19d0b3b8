check tests/grammars/bad/unmatched-paren.ebnf
