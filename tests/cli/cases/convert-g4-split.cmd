convert tests/grammars/formats/CalcParser.g4
