target grammars/expr.ebnf tests/explain/expr/train.jsonl
