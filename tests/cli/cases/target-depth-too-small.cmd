target -k 2 --no-balance --gen-depth 2 --feature fn:mul_add grammars/expr.ebnf tests/explain/expr/train.jsonl
