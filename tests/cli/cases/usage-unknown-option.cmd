paths --bogus grammars/expr.ebnf
