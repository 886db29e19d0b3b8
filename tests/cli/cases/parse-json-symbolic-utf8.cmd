parse --json --symbolic grammars/json.ebnf tests/samples/json/valid/scalar.json
