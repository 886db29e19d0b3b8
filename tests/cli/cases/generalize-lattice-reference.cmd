generalize --lattice tests/lattices/reference.ebnf tests/lattices/digits.ebnf tests/lattices/digits.txt -- true
