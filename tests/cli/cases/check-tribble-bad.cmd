check tests/grammars/formats/bad.tribble
