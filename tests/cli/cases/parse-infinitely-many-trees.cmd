parse tests/samples/ambiguous/cyclic.ebnf tests/samples/ambiguous/a.txt
