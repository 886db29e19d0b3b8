gen --strategy random --recurrent grammars/expr.ebnf
