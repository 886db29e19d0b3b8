check tests/grammars/ok/quantifiers.ebnf
