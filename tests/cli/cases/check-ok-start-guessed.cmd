check tests/grammars/ok/start-guessed.ebnf
