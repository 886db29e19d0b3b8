parse grammars/json.ebnf tests/samples/json/invalid/second-line.json
