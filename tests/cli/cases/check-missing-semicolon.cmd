check tests/grammars/bad/missing-semicolon.ebnf
