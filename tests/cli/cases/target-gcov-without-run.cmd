target --feature fn:mul_add --gcov build grammars/expr.ebnf tests/explain/expr/train.jsonl
