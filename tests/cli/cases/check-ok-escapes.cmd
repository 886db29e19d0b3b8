check tests/grammars/ok/escapes.ebnf
