# kpath generalize: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== generalize-bad-command
$ kpath generalize tests/lattices/digits.ebnf tests/lattices/digits.txt -- /nonexistent/prog
stderr:
| kpath generalize: error: /nonexistent/prog: no such command
status: 2

=== generalize-bad-valid-exit
$ kpath generalize --valid-exit 256 grammars/expr.ebnf tests/explain/expr/bad.txt -- true
stderr:
| kpath generalize: --valid-exit takes exit codes 0..255 separated by commas, like 0,1, not '256'
| Try 'kpath generalize --help' for more information.
status: 2

=== generalize-grammar-and-sample-stdin
$ kpath generalize - - -- true
stderr:
| kpath generalize: GRAMMAR and a sample are both '-' (standard input), which can be read only once: give one of them as a file
| Try 'kpath generalize --help' for more information.
status: 2

=== generalize-lattice-example-not-in-item
$ kpath generalize --lattice tests/lattices/example-not-in-item.ebnf tests/lattices/digits.ebnf tests/lattices/digits.txt -- true
stderr:
| tests/lattices/example-not-in-item.ebnf:2:26: error: digits.examples: this example is not in item digits
status: 2

=== generalize-lattice-generalizes-below
$ kpath generalize --lattice tests/lattices/generalizes-below.ebnf tests/lattices/digits.ebnf tests/lattices/digits.txt -- true
stderr:
| tests/lattices/generalizes-below.ebnf:3:22: error: alnum.generalizes: item digits is not written above alnum (list items from the most specific to the most general)
status: 2

=== generalize-lattice-no-examples
$ kpath generalize --lattice tests/lattices/no-examples.ebnf tests/lattices/digits.ebnf tests/lattices/digits.txt -- true
stderr:
| tests/lattices/no-examples.ebnf:1:1: error: item digits has no examples (add a rule digits.examples := "..." | ...;)
status: 2

=== generalize-lattice-reference
$ kpath generalize --lattice tests/lattices/reference.ebnf tests/lattices/digits.ebnf tests/lattices/digits.txt -- true
stderr:
| tests/lattices/reference.ebnf:3:11: error: item number refers to rule digit: an item is written with literals and classes only
status: 2

=== generalize-no-command
$ kpath generalize tests/lattices/digits.ebnf tests/lattices/digits.txt
stderr:
| kpath generalize: missing -- COMMAND (the oracle)
| Try 'kpath generalize --help' for more information.
status: 2

=== generalize-no-sample
$ kpath generalize tests/lattices/digits.ebnf -- true
stderr:
| kpath generalize: missing SAMPLE: generalizing starts from valid inputs
| Try 'kpath generalize --help' for more information.
status: 2

=== generalize-sample-does-not-parse
$ kpath generalize tests/lattices/digits.ebnf tests/lattices/digits-bad.txt -- true
stderr:
| tests/lattices/digits-bad.txt:1:3: error: no parse: unexpected '4'; expected '42' ('42' stops matching at 1:4: 'x')
status: 2

=== generalize-sample-rejected
$ kpath generalize tests/lattices/digits.ebnf tests/lattices/digits.txt -- false
stderr:
| the samples
|     #1    no   "n=42"
|   => not all accepted
| tests/lattices/digits.txt: error: the program rejects this sample (exit:1); every sample must be valid
status: 2

=== generalize-zero-max-queries
$ kpath generalize --max-queries 0 tests/lattices/digits.ebnf tests/lattices/digits.txt -- true
stderr:
| kpath generalize: --max-queries must be at least 1
| Try 'kpath generalize --help' for more information.
status: 2
