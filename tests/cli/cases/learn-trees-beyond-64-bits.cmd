learn tests/samples/ambiguous/catalan.ebnf tests/samples/ambiguous/catalan-37.txt tests/samples/ambiguous/catalan-38.txt
