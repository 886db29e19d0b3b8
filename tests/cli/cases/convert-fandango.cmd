convert tests/grammars/formats/calc.fan
