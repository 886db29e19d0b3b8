gen -0 -o tests/cli/no-such-dir grammars/expr.ebnf
