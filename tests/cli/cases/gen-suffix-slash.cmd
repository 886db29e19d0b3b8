gen --suffix a/b -o tests/cli/no-such-dir grammars/expr.ebnf
