grammar-from
