cover --stream -o build/never-made grammars/expr.ebnf
