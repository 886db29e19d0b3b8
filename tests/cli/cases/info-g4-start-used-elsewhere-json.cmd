info -k 1 --json tests/grammars/formats/EntryFirst.g4
