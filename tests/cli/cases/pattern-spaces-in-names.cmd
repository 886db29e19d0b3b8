pattern tests/grammars/contexts/numbers.ebnf '<expr>_0 " + "_6'
