info -k 2 tests/grammars/formats/EntryFirst.g4
