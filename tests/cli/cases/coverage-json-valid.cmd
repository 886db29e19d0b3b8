coverage -k 3 grammars/json.ebnf tests/samples/json/valid
