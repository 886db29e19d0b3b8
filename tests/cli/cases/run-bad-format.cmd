run --format nope grammars/expr.ebnf tests/samples/expr/valid -- cat
