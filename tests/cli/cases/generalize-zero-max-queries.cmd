generalize --max-queries 0 tests/lattices/digits.ebnf tests/lattices/digits.txt -- true
