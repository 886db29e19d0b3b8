generalize --lattice tests/lattices/example-not-in-item.ebnf tests/lattices/digits.ebnf tests/lattices/digits.txt -- true
