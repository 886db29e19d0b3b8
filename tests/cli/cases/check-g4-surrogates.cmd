check tests/grammars/formats/Surrogates.g4
