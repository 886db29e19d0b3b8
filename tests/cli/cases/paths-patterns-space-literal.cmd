paths -k 2 --patterns tests/grammars/ok/space-literal.ebnf
