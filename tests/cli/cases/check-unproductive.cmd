check tests/grammars/bad/unproductive.ebnf
