coverage grammars/csv.ebnf tests/samples/csv/invalid
