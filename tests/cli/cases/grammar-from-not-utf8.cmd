grammar-from tests/lattices/not-utf8.txt
