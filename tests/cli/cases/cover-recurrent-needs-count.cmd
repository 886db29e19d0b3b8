cover --recurrent grammars/expr.ebnf
