pattern tests/grammars/contexts/groups.ebnf 'E_14 "e"_20'
