explain -k 1 --no-balance --feature '^fn:p' --json grammars/expr.ebnf tests/explain/expr/train.jsonl
