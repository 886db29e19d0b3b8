explain grammars/expr.ebnf tests/explain/expr/all-bad.jsonl
