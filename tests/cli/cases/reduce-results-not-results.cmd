reduce --results grammars/expr.ebnf grammars/expr.ebnf tests/samples/expr/valid
