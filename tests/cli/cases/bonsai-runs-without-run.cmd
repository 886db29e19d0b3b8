bonsai --runs /tmp/nowhere grammars/json.ebnf
