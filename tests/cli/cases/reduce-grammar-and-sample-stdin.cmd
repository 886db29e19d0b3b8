reduce - tests/samples/expr -
