check tests/grammars/bad/no-rules.ebnf
