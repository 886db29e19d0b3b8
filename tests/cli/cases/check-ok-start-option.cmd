check --start Ping tests/grammars/ok/unreachable.ebnf
