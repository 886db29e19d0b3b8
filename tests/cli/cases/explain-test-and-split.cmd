explain --test tests/explain/expr/test.jsonl --split 20 grammars/expr.ebnf tests/explain/expr/train.jsonl
