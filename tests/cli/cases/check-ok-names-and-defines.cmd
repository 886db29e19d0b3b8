check tests/grammars/ok/names-and-defines.ebnf
