why --pin S_17 --max-depth 8 tests/grammars/ok/pinned-smallest.ebnf '"t"_6'
