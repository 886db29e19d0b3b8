target --feature fn:mul_add grammars/expr.ebnf tests/explain/expr/train.jsonl -- cat
