explain --split 100 grammars/expr.ebnf tests/explain/expr/train.jsonl
