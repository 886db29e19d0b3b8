check --format fandango tests/grammars/formats/calc-sample.txt
