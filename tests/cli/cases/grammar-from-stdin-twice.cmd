grammar-from - -
