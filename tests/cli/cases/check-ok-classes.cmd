check tests/grammars/ok/classes.ebnf
