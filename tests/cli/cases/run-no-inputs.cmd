run grammars/expr.ebnf -- cat
