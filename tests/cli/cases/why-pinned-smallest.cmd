why --pin S_17 tests/grammars/ok/pinned-smallest.ebnf '"t"_6'
