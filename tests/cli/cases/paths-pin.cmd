paths -k 2 --pin Identifier_16 grammars/expr.ebnf
