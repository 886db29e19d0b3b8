paths -k 2 --patterns --quoted tests/grammars/contexts/groups.ebnf
