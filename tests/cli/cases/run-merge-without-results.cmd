run --merge a.jsonl b.jsonl
