convert --to tribble grammars/expr.ebnf
