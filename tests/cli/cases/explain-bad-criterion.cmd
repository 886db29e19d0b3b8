explain --criterion gain grammars/expr.ebnf tests/explain/expr/train.jsonl
