convert --to fandango grammars/expr.ebnf
