run grammars/expr.ebnf tests/samples/expr/no-such-dir -- cat
