convert tests/grammars/formats/fan-main.fan
