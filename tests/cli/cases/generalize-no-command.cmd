generalize tests/lattices/digits.ebnf tests/lattices/digits.txt
