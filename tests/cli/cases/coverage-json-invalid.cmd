coverage grammars/json.ebnf tests/samples/json/invalid
