# kpath reduce: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== reduce-exact-limit-too-large
$ kpath reduce --exact-limit 300 grammars/expr.ebnf tests/samples/expr/valid
stderr:
| kpath reduce: --exact-limit must be a whole number from 0 to 256, not '300'
| Try 'kpath reduce --help' for more information.
status: 2

=== reduce-grammar-and-sample-stdin
$ kpath reduce - tests/samples/expr -
stderr:
| kpath reduce: GRAMMAR and a sample are both '-' (standard input), which can be read only once: give one of them as a file
| Try 'kpath reduce --help' for more information.
status: 2

=== reduce-missing-results
$ kpath reduce --results tests/samples/expr/valid/does-not-exist.jsonl grammars/expr.ebnf tests/samples/expr/valid
stderr:
| tests/samples/expr/valid/does-not-exist.jsonl: error: cannot read: No such file or directory
status: 2

=== reduce-output-not-empty
$ kpath reduce -o tests/samples/expr/valid grammars/expr.ebnf tests/samples/expr/valid
stderr:
| kpath reduce: error: tests/samples/expr/valid is not empty (use --force to replace its test cases)
status: 2

=== reduce-results-not-results
$ kpath reduce --results grammars/expr.ebnf grammars/expr.ebnf tests/samples/expr/valid
stderr:
| grammars/expr.ebnf:1:1: error: expected a value
status: 2

=== reduce-suffix-without-output
$ kpath reduce --suffix .in grammars/expr.ebnf tests/samples/expr/valid
stderr:
| kpath reduce: --suffix needs -o DIR
| Try 'kpath reduce --help' for more information.
status: 2

=== reduce-unparsable
$ kpath reduce grammars/expr.ebnf tests/samples/expr/valid tests/samples/expr/invalid/close-paren.txt
stderr:
| kpath reduce: 1 of 8 inputs could not be measured; nothing was reduced (--skip-invalid reduces the others):
| tests/samples/expr/invalid/close-paren.txt:1:4: error: no parse: unexpected ')'; expected one of '%', '*', '+', '-', '/', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', end of input
status: 2

=== reduce-unparsable-every-one-listed
$ kpath reduce grammars/expr.ebnf tests/samples/expr/valid/add.txt tests/samples/expr/invalid tests/samples/expr/valid/nested.txt no/such/file
stderr:
| kpath reduce: 7 of 9 inputs could not be measured; nothing was reduced (--skip-invalid reduces the others):
| no/such/file: error: cannot read: No such file or directory
| tests/samples/expr/invalid/close-paren.txt:1:4: error: no parse: unexpected ')'; expected one of '%', '*', '+', '-', '/', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', end of input
| tests/samples/expr/invalid/empty.txt:1:1: error: no parse: unexpected end of input; expected one of '(', '+', '++', '-', '--', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'x', 'y', 'z'
| tests/samples/expr/invalid/letter-after-digit.txt:1:2: error: no parse: unexpected 'a'; expected one of '%', '*', '+', '-', '/', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', end of input
| tests/samples/expr/invalid/missing-operand.txt:1:4: error: no parse: unexpected end of input; expected one of '(', '+', '++', '-', '--', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'x', 'y', 'z'
| tests/samples/expr/invalid/space.txt:1:2: error: no parse: unexpected ' '; expected one of '%', '*', '+', '-', '/', end of input
| tests/samples/expr/invalid/unclosed.txt:1:5: error: no parse: unexpected end of input; expected one of '%', ')', '*', '+', '-', '/'
status: 2
