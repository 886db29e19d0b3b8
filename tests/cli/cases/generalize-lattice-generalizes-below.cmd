generalize --lattice tests/lattices/generalizes-below.ebnf tests/lattices/digits.ebnf tests/lattices/digits.txt -- true
