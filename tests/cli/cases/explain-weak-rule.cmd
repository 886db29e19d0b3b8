explain -k 1 --no-balance grammars/json.ebnf tests/explain/json/one-crash.jsonl
