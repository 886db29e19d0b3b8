paths -k 1 --patterns --json tests/grammars/contexts/groups.ebnf
