parse --symbolic grammars/csv.ebnf tests/samples/csv/valid/multiline.csv
