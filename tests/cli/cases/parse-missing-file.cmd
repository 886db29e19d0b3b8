parse grammars/expr.ebnf no/such/file
