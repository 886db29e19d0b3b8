paths --quoted grammars/expr.ebnf
