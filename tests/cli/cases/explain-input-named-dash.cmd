explain grammars/expr.ebnf tests/explain/expr/dash.jsonl
