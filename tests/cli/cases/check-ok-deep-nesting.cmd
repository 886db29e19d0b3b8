check tests/grammars/ok/deep-nesting.ebnf
