check tests/grammars/bad/undefined-rule.ebnf
