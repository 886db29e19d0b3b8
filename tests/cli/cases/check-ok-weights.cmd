check tests/grammars/ok/weights.ebnf
