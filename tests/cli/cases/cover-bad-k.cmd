cover -k 0 grammars/config.ebnf
