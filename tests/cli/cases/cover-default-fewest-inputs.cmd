cover -k 2 grammars/json.ebnf
