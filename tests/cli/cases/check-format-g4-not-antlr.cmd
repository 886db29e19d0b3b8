check --format g4 tests/grammars/formats/calc-sample.txt
