gen tests/grammars/no-such-file.ebnf
