bonsai grammars/json.ebnf --run
