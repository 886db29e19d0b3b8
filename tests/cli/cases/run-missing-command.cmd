run grammars/expr.ebnf tests/samples/expr/valid
