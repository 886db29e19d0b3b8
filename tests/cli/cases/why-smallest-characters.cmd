why tests/grammars/ok/smallest-characters.ebnf '"ééé"_1'
