coverage --json tests/samples/ambiguous/catalan.ebnf tests/samples/ambiguous/catalan-38.txt
