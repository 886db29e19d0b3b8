learn grammars/arith.ebnf tests/samples/learn/arith-1.txt
