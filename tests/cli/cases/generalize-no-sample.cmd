generalize tests/lattices/digits.ebnf -- true
