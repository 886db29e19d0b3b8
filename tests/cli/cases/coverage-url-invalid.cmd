coverage grammars/url.ebnf tests/samples/url/invalid
