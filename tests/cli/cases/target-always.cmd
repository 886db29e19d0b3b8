target --feature exit:0 grammars/expr.ebnf tests/explain/expr/train.jsonl
