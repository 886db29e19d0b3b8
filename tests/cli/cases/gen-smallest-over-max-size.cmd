gen --strategy random -n 1 --max-size 100 tests/grammars/ok/long-repetition.ebnf
