explain --min-precision 0.125 grammars/json.ebnf tests/explain/json/fractions.jsonl
