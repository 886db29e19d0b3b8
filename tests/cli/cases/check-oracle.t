# kpath check-oracle: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== check-oracle-bad-command
$ kpath check-oracle grammars/expr.ebnf -k 1 -- kpath-no-such-command
stderr:
| kpath check-oracle: error: kpath-no-such-command: command not found in PATH
status: 2

=== check-oracle-bad-valid-exit
$ kpath check-oracle grammars/expr.ebnf --valid-exit 0,x -- true
stderr:
| kpath check-oracle: --valid-exit takes exit codes 0..255 separated by commas, like 0,1, not '0,x'
| Try 'kpath check-oracle --help' for more information.
status: 2

=== check-oracle-grammar-and-sample-stdin
$ kpath check-oracle -k 1 - - -- true
stderr:
| kpath check-oracle: GRAMMAR and a sample are both '-' (standard input), which can be read only once: give one of them as a file
| Try 'kpath check-oracle --help' for more information.
status: 2

=== check-oracle-no-command
$ kpath check-oracle grammars/expr.ebnf -k 1
stderr:
| kpath check-oracle: missing -- COMMAND (the oracle)
| Try 'kpath check-oracle --help' for more information.
status: 2

=== check-oracle-no-grammar
$ kpath check-oracle -o /nonexistent-kpath-dir -- true
stderr:
| kpath check-oracle: missing GRAMMAR
| Try 'kpath check-oracle --help' for more information.
status: 2
