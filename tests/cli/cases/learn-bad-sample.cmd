learn grammars/arith.ebnf tests/samples/learn/arith-1.txt tests/samples/learn/arith-bad.txt -o /dev/null
