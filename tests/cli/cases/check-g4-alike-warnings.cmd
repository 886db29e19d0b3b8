check tests/grammars/formats/AlikeWarnings.g4
