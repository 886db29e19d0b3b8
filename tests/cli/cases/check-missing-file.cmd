check tests/grammars/no-such-file.ebnf
