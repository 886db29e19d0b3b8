coverage --max-input-size 100 grammars/json.ebnf tests/samples/json/valid/object.json tests/samples/json/valid/numbers.json
