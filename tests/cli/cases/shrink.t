# kpath shrink: usage errors, refused before any run.  What it makes of a
# failing input is tested on the bundled subject by scripts/shrink-calc.sh.

=== shrink-missing-input
$ kpath shrink grammars/arith.ebnf
stderr:
| kpath shrink: missing INPUT [-o FILE] -- COMMAND [ARG...] after GRAMMAR
| Try 'kpath shrink --help' for more information.
status: 2

=== shrink-two-inputs
$ kpath shrink grammars/arith.ebnf a b -- true
stderr:
| kpath shrink: takes one INPUT after GRAMMAR, not 2
| Try 'kpath shrink --help' for more information.
status: 2

=== shrink-missing-command
$ kpath shrink grammars/arith.ebnf README.md
stderr:
| kpath shrink: missing -- COMMAND (the program that fails on INPUT) or --harness FILE
| Try 'kpath shrink --help' for more information.
status: 2

=== shrink-bad-valid-exit
$ kpath shrink --valid-exit x grammars/arith.ebnf README.md -- true
stderr:
| kpath shrink: --valid-exit takes exit codes 0..255 separated by commas, like 0,1, not 'x'
| Try 'kpath shrink --help' for more information.
status: 2

=== shrink-unreadable-input
$ kpath shrink grammars/arith.ebnf /nonexistent -- true
stderr:
| /nonexistent: error: cannot read: No such file or directory
status: 2

=== shrink-no-such-command
$ kpath shrink grammars/arith.ebnf README.md -- /no/such
stderr:
| kpath shrink: error: /no/such: no such command
status: 2
