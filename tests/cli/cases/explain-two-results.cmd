explain grammars/expr.ebnf tests/explain/expr/train.jsonl tests/explain/expr/test.jsonl
