coverage -k 2 tests/grammars/contexts/two-numbers.ebnf tests/samples/contexts/01.0.txt
