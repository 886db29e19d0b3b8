check tests/grammars/bad/empty-class.ebnf
