grammar-from tests/lattices/missing.txt
