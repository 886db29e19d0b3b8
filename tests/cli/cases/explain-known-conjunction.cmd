explain -k 2 --no-balance --feature fn:mul_add --test tests/explain/expr/test.jsonl grammars/expr.ebnf tests/explain/expr/train.jsonl
