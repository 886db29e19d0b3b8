why tests/grammars/ok/short-not-shallow.ebnf '"t"_11'
