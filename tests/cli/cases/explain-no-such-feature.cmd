explain --feature 'fn:nothing' grammars/expr.ebnf tests/explain/expr/train.jsonl
