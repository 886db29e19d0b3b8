coverage -k 2 --pin A_3 --uncovered tests/grammars/contexts/two-numbers.ebnf tests/samples/contexts/01.0.txt
