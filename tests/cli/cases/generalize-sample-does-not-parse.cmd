generalize tests/lattices/digits.ebnf tests/lattices/digits-bad.txt -- true
