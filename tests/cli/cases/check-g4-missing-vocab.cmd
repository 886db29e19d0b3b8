check tests/grammars/formats/BadVocab.g4
