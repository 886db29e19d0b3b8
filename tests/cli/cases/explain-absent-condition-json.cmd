explain -k 1 --no-balance --json --feature exit:0 grammars/json.ebnf tests/explain/json/fractions.jsonl
