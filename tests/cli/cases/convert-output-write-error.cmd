convert --to g4 -o /dev/full grammars/expr.ebnf
