run --report tests/no-such.jsonl
