reduce --results tests/samples/expr/valid/does-not-exist.jsonl grammars/expr.ebnf tests/samples/expr/valid
