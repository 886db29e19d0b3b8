target --feature fn:mul_ad grammars/expr.ebnf tests/explain/expr/train.jsonl
