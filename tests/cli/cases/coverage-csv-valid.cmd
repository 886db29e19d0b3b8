coverage -k 3 grammars/csv.ebnf tests/samples/csv/valid
