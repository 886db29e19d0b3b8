run --shard 2 grammars/expr.ebnf tests/samples/expr/valid -- true
