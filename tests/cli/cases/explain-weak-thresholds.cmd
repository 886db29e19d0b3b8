explain -k 1 --no-balance --min-reaching 4 --min-precision 1 --feature exit:1 grammars/json.ebnf tests/explain/json/fractions.jsonl
