dup -o tests/grammars/contexts/no-such-dir/out.ebnf tests/grammars/contexts/numbers.ebnf '<factor>' 4
