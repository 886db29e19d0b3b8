convert --to yaml grammars/expr.ebnf
