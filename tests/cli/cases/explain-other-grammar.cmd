explain -k 1 --feature fn:paren grammars/expr.ebnf tests/explain/expr/other-grammar.jsonl
