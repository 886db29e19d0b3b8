check tests/grammars/ok/several-unreferenced.ebnf
