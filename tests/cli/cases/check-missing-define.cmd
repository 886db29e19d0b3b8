check tests/grammars/bad/missing-define.ebnf
