cover -o grammars/expr.ebnf --force grammars/expr.ebnf
