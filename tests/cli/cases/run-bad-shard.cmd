run --shard 4/3 grammars/expr.ebnf tests/samples/expr/valid -- true
