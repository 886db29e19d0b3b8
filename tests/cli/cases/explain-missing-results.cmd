explain grammars/expr.ebnf tests/explain/expr/none.jsonl
