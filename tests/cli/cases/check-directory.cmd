check tests/grammars
