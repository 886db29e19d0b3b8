cover -k 2 --max-size 12 tests/grammars/ok/explosive.ebnf
