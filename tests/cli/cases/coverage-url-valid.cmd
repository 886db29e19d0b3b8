coverage -k 3 grammars/url.ebnf tests/samples/url/valid
