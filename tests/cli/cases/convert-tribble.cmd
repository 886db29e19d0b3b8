convert --to tribble tests/grammars/formats/calc.tribble
