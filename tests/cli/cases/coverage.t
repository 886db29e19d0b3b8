# kpath coverage: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== coverage-arith-invalid
$ kpath coverage --start Expr grammars/arith.ebnf tests/samples/arith/invalid
stdout:
| total (0 of 4 files; 4 failed): k=1 0/35 (0.0%), k=2 0/122 (0.0%)
| expansion coverage: 0/22 (0.0%)
stderr:
| kpath coverage: 4 of 4 samples failed (not counted above):
| tests/samples/arith/invalid/double-star.txt:1:3: error: no parse: unexpected '*'; expected one of '(', '+', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'
| tests/samples/arith/invalid/trailing-plus.txt:1:3: error: no parse: unexpected end of input; expected one of '(', '+', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'
| tests/samples/arith/invalid/trailing-space.txt:1:2: error: no parse: unexpected ' '; expected one of '*', '+', '-', '/', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', end of input
| tests/samples/arith/invalid/unclosed.txt:1:3: error: no parse: unexpected end of input; expected one of ')', '*', '+', '-', '/', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'
status: 2

=== coverage-arith-valid
$ kpath coverage -k 3 --start Expr grammars/arith.ebnf tests/samples/arith/valid
stdout:
| tests/samples/arith/valid/chain.txt: k=1 18/35 (51.4%), k=2 22/122 (18.0%), k=3 20/471 (4.2%)
| tests/samples/arith/valid/digits.txt: k=1 16/35 (45.7%), k=2 17/122 (13.9%), k=3 18/471 (3.8%)
| tests/samples/arith/valid/learn-example.txt: k=1 16/35 (45.7%), k=2 18/122 (14.7%), k=3 17/471 (3.6%)
| tests/samples/arith/valid/nested.txt: k=1 8/35 (22.8%), k=2 8/122 (6.5%), k=3 8/471 (1.6%)
| tests/samples/arith/valid/signs.txt: k=1 20/35 (57.1%), k=2 22/122 (18.0%), k=3 22/471 (4.6%)
| total (5 files): k=1 35/35 (100.0%), k=2 68/122 (55.7%), k=3 73/471 (15.4%)
| expansion coverage: 22/22 (100.0%)
status: 0

=== coverage-bad-k
$ kpath coverage -k 0 grammars/expr.ebnf tests/samples/expr/valid/add.txt
stderr:
| kpath coverage: -k must be a whole number from 1 to 1000, not '0'
| Try 'kpath coverage --help' for more information.
status: 2

=== coverage-bad-max-input-size
$ kpath coverage --max-input-size 0 grammars/expr.ebnf tests/samples/expr/valid/add.txt
stderr:
| kpath coverage: --max-input-size must be a number of bytes from 1, optionally with K, M or G, not '0'
| Try 'kpath coverage --help' for more information.
status: 2

=== coverage-bad-max-memory
$ kpath coverage --max-memory 10x grammars/json.ebnf tests/samples/learn/arith-1.txt
stderr:
| kpath coverage: --max-memory must be a number of bytes from 1, optionally with K, M or G, not '10x'
| Try 'kpath coverage --help' for more information.
status: 2

=== coverage-csv-and-json
$ kpath coverage --growth --csv --json grammars/expr.ebnf tests/samples/expr/valid/add.txt
stderr:
| kpath coverage: --csv and --json exclude each other
| Try 'kpath coverage --help' for more information.
status: 2

=== coverage-csv-invalid
$ kpath coverage grammars/csv.ebnf tests/samples/csv/invalid
stdout:
| total (0 of 4 files; 4 failed): k=1 0/18 (0.0%), k=2 0/20 (0.0%)
| expansion coverage: 0/12 (0.0%)
stderr:
| kpath coverage: 4 of 4 samples failed (not counted above):
| tests/samples/csv/invalid/after-quote.csv:1:4: error: no parse: unexpected 'b'; expected one of '\r\n', ',', end of input
| tests/samples/csv/invalid/bare-lf.csv:1:2: error: no parse: unexpected '\n'; expected one of '\r\n', [\x20-\x21\x23-\x2B\x2D-\x7E], ',', end of input
| tests/samples/csv/invalid/quote-inside.csv:1:3: error: no parse: unexpected '"'; expected one of '\r\n', [\x20-\x21\x23-\x2B\x2D-\x7E], ',', end of input
| tests/samples/csv/invalid/unterminated.csv:1:5: error: no parse: unexpected end of input; expected one of '\n', '\r', [\x20-\x21\x23-\x2B\x2D-\x7E], '"', '""', ','
status: 2

=== coverage-csv-valid
$ kpath coverage -k 3 grammars/csv.ebnf tests/samples/csv/valid
stdout:
| tests/samples/csv/valid/empty.csv: k=1 3/18 (16.6%), k=2 2/20 (10.0%), k=3 1/26 (3.8%)
| tests/samples/csv/valid/multiline.csv: k=1 13/18 (72.2%), k=2 12/20 (60.0%), k=3 10/26 (38.4%)
| tests/samples/csv/valid/quoted.csv: k=1 14/18 (77.7%), k=2 16/20 (80.0%), k=3 14/26 (53.8%)
| tests/samples/csv/valid/records.csv: k=1 10/18 (55.5%), k=2 10/20 (50.0%), k=3 7/26 (26.9%); 2 parse trees
| total (4 files): k=1 18/18 (100.0%), k=2 20/20 (100.0%), k=3 20/26 (76.9%)
| expansion coverage: 12/12 (100.0%)
status: 0

=== coverage-csv-without-growth
$ kpath coverage --csv grammars/expr.ebnf tests/samples/expr/valid/add.txt
stderr:
| kpath coverage: --csv prints the growth curve: use it with --growth
| Try 'kpath coverage --help' for more information.
status: 2

=== coverage-expr-invalid
$ kpath coverage grammars/expr.ebnf tests/samples/expr/invalid
stdout:
| total (0 of 6 files; 6 failed): k=1 0/39 (0.0%), k=2 0/125 (0.0%)
| expansion coverage: 0/31 (0.0%)
stderr:
| kpath coverage: 6 of 6 samples failed (not counted above):
| tests/samples/expr/invalid/close-paren.txt:1:4: error: no parse: unexpected ')'; expected one of '%', '*', '+', '-', '/', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', end of input
| tests/samples/expr/invalid/empty.txt:1:1: error: no parse: unexpected end of input; expected one of '(', '+', '++', '-', '--', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'x', 'y', 'z'
| tests/samples/expr/invalid/letter-after-digit.txt:1:2: error: no parse: unexpected 'a'; expected one of '%', '*', '+', '-', '/', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', end of input
| tests/samples/expr/invalid/missing-operand.txt:1:4: error: no parse: unexpected end of input; expected one of '(', '+', '++', '-', '--', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'x', 'y', 'z'
| tests/samples/expr/invalid/space.txt:1:2: error: no parse: unexpected ' '; expected one of '%', '*', '+', '-', '/', end of input
| tests/samples/expr/invalid/unclosed.txt:1:5: error: no parse: unexpected end of input; expected one of '%', ')', '*', '+', '-', '/'
status: 2

=== coverage-expr-valid
$ kpath coverage -k 3 grammars/expr.ebnf tests/samples/expr/valid
stdout:
| tests/samples/expr/valid/add.txt: k=1 12/39 (30.7%), k=2 12/125 (9.6%), k=3 9/523 (1.7%)
| tests/samples/expr/valid/digits.txt: k=1 15/39 (38.4%), k=2 14/125 (11.2%), k=3 13/523 (2.4%)
| tests/samples/expr/valid/four-minus.txt: k=1 9/39 (23.0%), k=2 17/125 (13.6%), k=3 27/523 (5.1%); 5 parse trees
| tests/samples/expr/valid/mixed.txt: k=1 20/39 (51.2%), k=2 24/125 (19.2%), k=3 23/523 (4.3%)
| tests/samples/expr/valid/nested.txt: k=1 8/39 (20.5%), k=2 8/125 (6.4%), k=3 8/523 (1.5%)
| tests/samples/expr/valid/plus-plus.txt: k=1 11/39 (28.2%), k=2 12/125 (9.6%), k=3 9/523 (1.7%)
| tests/samples/expr/valid/unary.txt: k=1 18/39 (46.1%), k=2 24/125 (19.2%), k=3 25/523 (4.7%); 2 parse trees
| total (7 files): k=1 39/39 (100.0%), k=2 64/125 (51.2%), k=3 90/523 (17.2%)
| expansion coverage: 31/31 (100.0%)
status: 0

=== coverage-expr-x-plus-42
$ kpath coverage -k 2 grammars/expr.ebnf tests/samples/expr/valid/add.txt
stdout:
| tests/samples/expr/valid/add.txt: k=1 12/39 (30.7%), k=2 12/125 (9.6%)
| total (1 file): k=1 12/39 (30.7%), k=2 12/125 (9.6%)
| expansion coverage: 11/31 (35.4%)
status: 0

=== coverage-expr-x-plus-42-json
$ kpath coverage --json -k 2 grammars/expr.ebnf tests/samples/expr/valid/add.txt
stdout:
| {"grammar": "grammars/expr.ebnf", "k": 2, "files": [
|     {"file": "tests/samples/expr/valid/add.txt", "trees": 1, "infinite": false, "coverage": [{"k": 1, "covered": 12, "total": 39, "saturated": false}, {"k": 2, "covered": 12, "total": 125, "saturated": false}], "expansions": {"covered": 11, "total": 31}}
|   ],
|   "total": {"files": 1, "parsed": 1, "failed": 0, "coverage": [{"k": 1, "covered": 12, "total": 39, "saturated": false}, {"k": 2, "covered": 12, "total": 125, "saturated": false}], "expansions": {"covered": 11, "total": 31}},
|   "failures": []
| }
status: 0

=== coverage-grammar-and-sample-stdin
$ kpath coverage - -
stderr:
| kpath coverage: GRAMMAR and a sample are both '-' (standard input), which can be read only once: give one of them as a file
| Try 'kpath coverage --help' for more information.
status: 2

=== coverage-infinitely-many-trees
$ kpath coverage tests/samples/ambiguous/cyclic.ebnf tests/samples/ambiguous/a.txt
stdout:
| tests/samples/ambiguous/a.txt: k=1 2/2 (100.0%), k=2 2/2 (100.0%); infinitely many parse trees
| total (1 file): k=1 2/2 (100.0%), k=2 2/2 (100.0%)
| expansion coverage: 2/2 (100.0%)
status: 0

=== coverage-invalid-grammar
$ kpath coverage tests/grammars/bad/missing-semicolon.ebnf tests/samples/expr/valid/add.txt
stderr:
| tests/grammars/bad/missing-semicolon.ebnf:2:19: error: missing ';' at the end of rule 'Sum'
status: 2

=== coverage-json-invalid
$ kpath coverage grammars/json.ebnf tests/samples/json/invalid
stdout:
| total (0 of 9 files; 9 failed): k=1 0/72 (0.0%), k=2 0/132 (0.0%)
| expansion coverage: 0/45 (0.0%)
stderr:
| kpath coverage: 9 of 9 samples failed (not counted above):
| tests/samples/json/invalid/bad-escape.json:1:3: error: no parse: unexpected 'x'; expected one of '"', '/', '\\', 'b', 'f', 'n', 'r', 't', 'u'
| tests/samples/json/invalid/extra-brace.json:1:8: error: no parse: unexpected '}'; expected one of '\t', '\n', '\r', ' ', end of input
| tests/samples/json/invalid/leading-zero.json:1:2: error: no parse: unexpected '1'; expected one of '\t', '\n', '\r', ' ', '.', 'E', 'e', end of input
| tests/samples/json/invalid/literal-typo.json:1:2: error: no parse: unexpected 't'; expected one of '\t', '\n', '\r', ' ', '"', '-', '0', [1-9], '[', ']', 'false', 'null', 'true', '{' ('true' stops matching at 1:5: ']')
| tests/samples/json/invalid/lone-minus.json:1:2: error: no parse: unexpected end of input; expected one of '0', [1-9]
| tests/samples/json/invalid/missing-colon.json:1:6: error: no parse: unexpected '1'; expected one of '\t', '\n', '\r', ' ', ':'
| tests/samples/json/invalid/second-line.json:3:3: error: no parse: unexpected '"'; expected one of '\t', '\n', '\r', ' ', ',', ']'
| tests/samples/json/invalid/trailing-comma.json:1:4: error: no parse: unexpected ']'; expected one of '\t', '\n', '\r', ' ', '"', '-', '0', [1-9], '[', 'false', 'null', 'true', '{'
| tests/samples/json/invalid/unterminated-string.json:1:5: error: no parse: unexpected end of input; expected one of [^"\\\x00-\x1F], '"', '\\'
status: 2

=== coverage-json-valid
$ kpath coverage -k 3 grammars/json.ebnf tests/samples/json/valid
stdout:
| tests/samples/json/valid/numbers.json: k=1 31/72 (43.0%), k=2 32/132 (24.2%), k=3 32/210 (15.2%)
| tests/samples/json/valid/object.json: k=1 52/72 (72.2%), k=2 69/132 (52.2%), k=3 84/210 (40.0%)
| tests/samples/json/valid/scalar.json: k=1 13/72 (18.0%), k=2 10/132 (7.5%), k=3 5/210 (2.3%)
| tests/samples/json/valid/strings.json: k=1 33/72 (45.8%), k=2 32/132 (24.2%), k=3 31/210 (14.7%)
| total (4 files): k=1 72/72 (100.0%), k=2 94/132 (71.2%), k=3 118/210 (56.1%)
| expansion coverage: 45/45 (100.0%)
status: 0

=== coverage-mixed-failures-listed-last
$ kpath coverage -k 1 grammars/expr.ebnf tests/samples/expr/invalid/space.txt no/such/file tests/samples/expr/valid/add.txt tests/samples/expr/invalid/unclosed.txt tests/samples/expr/valid/nested.txt
stdout:
| tests/samples/expr/valid/add.txt: k=1 12/39 (30.7%)
| tests/samples/expr/valid/nested.txt: k=1 8/39 (20.5%)
| total (2 of 5 files; 3 failed): k=1 16/39 (41.0%)
| expansion coverage: 13/31 (41.9%)
stderr:
| kpath coverage: 3 of 5 samples failed (not counted above):
| tests/samples/expr/invalid/space.txt:1:2: error: no parse: unexpected ' '; expected one of '%', '*', '+', '-', '/', end of input
| no/such/file: error: cannot read: No such file or directory
| tests/samples/expr/invalid/unclosed.txt:1:5: error: no parse: unexpected end of input; expected one of '%', ')', '*', '+', '-', '/'
status: 2

=== coverage-pin-context
$ kpath coverage -k 2 --pin A_3 --uncovered tests/grammars/contexts/two-numbers.ebnf tests/samples/contexts/01.0.txt
stdout:
| D_5 -> "1"_8
stderr:
| tests/samples/contexts/01.0.txt: k=1 3/4 (75.0%), k=2 2/3 (66.6%)
| total (1 file): k=1 3/4 (75.0%), k=2 2/3 (66.6%)
| expansion coverage: 4/4 (100.0%)
status: 0

=== coverage-pin-plain
$ kpath coverage -k 2 tests/grammars/contexts/two-numbers.ebnf tests/samples/contexts/01.0.txt
stdout:
| tests/samples/contexts/01.0.txt: k=1 6/6 (100.0%), k=2 4/4 (100.0%)
| total (1 file): k=1 6/6 (100.0%), k=2 4/4 (100.0%)
| expansion coverage: 4/4 (100.0%)
status: 0

=== coverage-stdin-twice
$ kpath coverage grammars/expr.ebnf - -
stderr:
| kpath coverage: '-' (standard input) can be given only once
| Try 'kpath coverage --help' for more information.
status: 2

=== coverage-too-large
$ kpath coverage --max-input-size 100 grammars/json.ebnf tests/samples/json/valid/object.json tests/samples/json/valid/numbers.json
stdout:
| tests/samples/json/valid/numbers.json: k=1 31/72 (43.0%), k=2 32/132 (24.2%)
| total (1 of 2 files; 1 failed): k=1 31/72 (43.0%), k=2 32/132 (24.2%)
| expansion coverage: 18/45 (40.0%)
stderr:
| kpath coverage: 1 of 2 samples failed (not counted above):
| tests/samples/json/valid/object.json: error: input is 156 bytes, more than the limit of 100 (--max-input-size)
status: 2

=== coverage-trees-beyond-64-bits
$ kpath coverage tests/samples/ambiguous/catalan.ebnf tests/samples/ambiguous/catalan-37.txt tests/samples/ambiguous/catalan-38.txt
stdout:
| tests/samples/ambiguous/catalan-37.txt: k=1 3/3 (100.0%), k=2 6/6 (100.0%); 11959798385860453492 parse trees
| tests/samples/ambiguous/catalan-38.txt: k=1 3/3 (100.0%), k=2 6/6 (100.0%); more than 2^64 parse trees
| total (2 files): k=1 3/3 (100.0%), k=2 6/6 (100.0%)
| expansion coverage: 2/2 (100.0%)
status: 0

=== coverage-trees-beyond-64-bits-json
$ kpath coverage --json tests/samples/ambiguous/catalan.ebnf tests/samples/ambiguous/catalan-38.txt
stdout:
| {"grammar": "tests/samples/ambiguous/catalan.ebnf", "k": 2, "files": [
|     {"file": "tests/samples/ambiguous/catalan-38.txt", "trees": null, "infinite": false, "more_than_2_64": true, "coverage": [{"k": 1, "covered": 3, "total": 3, "saturated": false}, {"k": 2, "covered": 6, "total": 6, "saturated": false}], "expansions": {"covered": 2, "total": 2}}
|   ],
|   "total": {"files": 1, "parsed": 1, "failed": 0, "coverage": [{"k": 1, "covered": 3, "total": 3, "saturated": false}, {"k": 2, "covered": 6, "total": 6, "saturated": false}], "expansions": {"covered": 2, "total": 2}},
|   "failures": []
| }
status: 0

=== coverage-url-invalid
$ kpath coverage grammars/url.ebnf tests/samples/url/invalid
stdout:
| total (0 of 4 files; 4 failed): k=1 0/100 (0.0%), k=2 0/190 (0.0%)
| expansion coverage: 0/67 (0.0%)
stderr:
| kpath coverage: 4 of 4 samples failed (not counted above):
| tests/samples/url/invalid/digit-scheme.txt:1:1: error: no parse: unexpected '1'; expected [A-Za-z]
| tests/samples/url/invalid/one-slash.txt:1:6: error: no parse: unexpected '/'; expected '//' ('//' stops matching at 1:7: 'x')
| tests/samples/url/invalid/port-or-userinfo.txt:1:16: error: no parse: unexpected end of input; expected one of '!', '$', '%', '&', '\'', '(', ')', '*', '+', ',', '-', '.', [0-9], ':', ';', '=', '@', [A-Za-z], '_', '~'
| tests/samples/url/invalid/space.txt:1:9: error: no parse: unexpected ' '; expected one of '!', '#', '$', '%', '&', '\'', '(', ')', '*', '+', ',', '-', '.', '/', [0-9], ':', ';', '=', '?', '@', [A-Za-z], '_', '~', end of input
status: 2

=== coverage-url-valid
$ kpath coverage -k 3 grammars/url.ebnf tests/samples/url/valid
stdout:
| tests/samples/url/valid/empty-host.txt: k=1 9/100 (9.0%), k=2 4/190 (2.1%), k=3 2/239 (0.8%)
| tests/samples/url/valid/ipv6.txt: k=1 26/100 (26.0%), k=2 25/190 (13.1%), k=3 22/239 (9.2%)
| tests/samples/url/valid/odd-scheme.txt: k=1 26/100 (26.0%), k=2 24/190 (12.6%), k=3 15/239 (6.2%)
| tests/samples/url/valid/simple.txt: k=1 27/100 (27.0%), k=2 23/190 (12.1%), k=3 19/239 (7.9%)
| tests/samples/url/valid/userinfo-ipv4.txt: k=1 38/100 (38.0%), k=2 42/190 (22.1%), k=3 35/239 (14.6%); 2 parse trees
| total (5 files): k=1 69/100 (69.0%), k=2 80/190 (42.1%), k=3 74/239 (30.9%)
| expansion coverage: 43/67 (64.1%)
status: 0

=== coverage-uncovered-skip-hidden
$ kpath coverage --uncovered tests/grammars/formats/EntryFirst.g4 tests/samples/contexts/entry-first-run.txt
stderr:
| tests/grammars/formats/EntryFirst.g4:8:1: warning: 2 rules are unreachable from the start rule 'stmt' (give --start to choose another); the first is here: 'prepare', 'hint'
| tests/samples/contexts/entry-first-run.txt: k=1 9/9 (100.0%), k=2 7/9 (77.7%)
| total (1 file): k=1 9/9 (100.0%), k=2 7/9 (77.7%)
| expansion coverage: 5/5 (100.0%)
| (2 uncovered 2-paths through _skip hidden; --skip-paths lists them)
status: 0

=== coverage-uncovered-skip-shown
$ kpath coverage --uncovered --skip-paths tests/grammars/formats/EntryFirst.g4 tests/samples/contexts/entry-first-run.txt
stdout:
| _skip_1 -> WS_5
| _skip_9 -> WS_5
stderr:
| tests/grammars/formats/EntryFirst.g4:8:1: warning: 2 rules are unreachable from the start rule 'stmt' (give --start to choose another); the first is here: 'prepare', 'hint'
| tests/samples/contexts/entry-first-run.txt: k=1 9/9 (100.0%), k=2 7/9 (77.7%)
| total (1 file): k=1 9/9 (100.0%), k=2 7/9 (77.7%)
| expansion coverage: 5/5 (100.0%)
status: 0
