explain --feature 'fn:(' grammars/expr.ebnf tests/explain/expr/train.jsonl
