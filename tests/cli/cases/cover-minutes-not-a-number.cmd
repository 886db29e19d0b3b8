cover --recurrent --minutes 0 grammars/expr.ebnf
