check tests/grammars/bad/defined-twice.ebnf
