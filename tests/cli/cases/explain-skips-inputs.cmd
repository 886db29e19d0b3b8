explain -k 1 grammars/expr.ebnf tests/explain/expr/skip.jsonl
