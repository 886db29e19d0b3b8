convert --to fuzzingbook tests/grammars/formats/CalcParser.g4
