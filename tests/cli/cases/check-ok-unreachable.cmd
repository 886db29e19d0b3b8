check tests/grammars/ok/unreachable.ebnf
