why grammars/expr.ebnf
