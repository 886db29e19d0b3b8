convert --to g4 tests/grammars/formats/TagParser.g4
