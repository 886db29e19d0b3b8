info grammars/exp.ebnf
