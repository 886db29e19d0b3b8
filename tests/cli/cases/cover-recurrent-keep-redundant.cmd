cover --recurrent -n 3 --keep-redundant grammars/expr.ebnf
