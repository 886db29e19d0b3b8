parse grammars/url.ebnf tests/samples/url/valid/empty-host.txt
