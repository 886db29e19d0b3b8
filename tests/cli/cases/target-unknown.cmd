target --feature fn:none grammars/expr.ebnf tests/explain/expr/train.jsonl
