target -n 1 --feature fn:mul_add grammars/expr.ebnf tests/explain/expr/train.jsonl --run -- /nonexistent/calc
