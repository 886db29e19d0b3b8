check tests/grammars/formats/fan-missing.fan
