generalize --lattice tests/lattices/no-examples.ebnf tests/lattices/digits.ebnf tests/lattices/digits.txt -- true
