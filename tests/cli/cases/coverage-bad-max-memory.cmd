coverage --max-memory 10x grammars/json.ebnf tests/samples/learn/arith-1.txt
