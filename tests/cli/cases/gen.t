# kpath gen: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== gen-bad-close-off
$ kpath gen --close-off longest grammars/expr.ebnf
stderr:
| kpath gen: --close-off must be shortest, random or greedy, not 'longest'
| Try 'kpath gen --help' for more information.
status: 2

=== gen-bad-max-size
$ kpath gen --max-size 0 grammars/expr.ebnf
stderr:
| kpath gen: --max-size must be a whole number from 1 to 4294967294, not '0'
| Try 'kpath gen --help' for more information.
status: 2

=== gen-bad-seed
$ kpath gen --seed 18446744073709551616 grammars/expr.ebnf
stderr:
| kpath gen: --seed must be a whole number from 0 to 18446744073709551615, not '18446744073709551616'
| Try 'kpath gen --help' for more information.
status: 2

=== gen-bad-strategy
$ kpath gen --strategy fast grammars/expr.ebnf
stderr:
| kpath gen: --strategy must be kpath, random, coverage or prob, not 'fast'
| Try 'kpath gen --help' for more information.
status: 2

=== gen-close-off-needs-kpath
$ kpath gen --strategy random --close-off random grammars/expr.ebnf
stderr:
| kpath gen: --close-off applies to the kpath strategy only
| Try 'kpath gen --help' for more information.
status: 2

=== gen-force-without-output
$ kpath gen --force grammars/expr.ebnf
stderr:
| kpath gen: --force needs -o DIR
| Try 'kpath gen --help' for more information.
status: 2

=== gen-missing-argument
$ kpath gen -k 3
stderr:
| kpath gen: missing GRAMMAR
| Try 'kpath gen --help' for more information.
status: 2

=== gen-missing-grammar
$ kpath gen tests/grammars/no-such-file.ebnf
stderr:
| tests/grammars/no-such-file.ebnf: error: cannot read: No such file or directory
status: 2

=== gen-null-and-output
$ kpath gen -0 -o tests/cli/no-such-dir grammars/expr.ebnf
stderr:
| kpath gen: -0 and -o exclude each other (-0 separates inputs on stdout)
| Try 'kpath gen --help' for more information.
status: 2

=== gen-output-not-empty
$ kpath gen -o grammars grammars/expr.ebnf
stderr:
| kpath gen: error: grammars is not empty (use --force to replace its test cases)
status: 2

=== gen-recurrent-needs-kpath
$ kpath gen --strategy random --recurrent grammars/expr.ebnf
stderr:
| kpath gen: --recurrent applies to the kpath strategy only
| Try 'kpath gen --help' for more information.
status: 2

=== gen-smallest-over-max-size
$ kpath gen --strategy random -n 1 --max-size 100 tests/grammars/ok/long-repetition.ebnf
stderr:
| tests/grammars/ok/long-repetition.ebnf:1:1: error: rule S: its smallest derivation has 151 tree nodes, more than the size budget (--max-size 100); the smallest input needs --max-size 151
status: 2

=== gen-suffix-slash
$ kpath gen --suffix a/b -o tests/cli/no-such-dir grammars/expr.ebnf
stderr:
| kpath gen: --suffix must not contain '/', not 'a/b'
| Try 'kpath gen --help' for more information.
status: 2

=== gen-suffix-without-output
$ kpath gen --suffix .in grammars/expr.ebnf
stderr:
| kpath gen: --suffix needs -o DIR
| Try 'kpath gen --help' for more information.
status: 2

=== gen-target-needs-kpath
$ kpath gen --strategy random --target tests/grammars/targets/expr-three.txt grammars/expr.ebnf
stderr:
| kpath gen: --target applies to the kpath strategy only
| Try 'kpath gen --help' for more information.
status: 2

=== gen-unlimited-random
$ kpath gen --strategy random -n 0 grammars/expr.ebnf
stderr:
| kpath gen: -n 0 (no limit) works with the kpath strategy only; --strategy random needs a number of inputs
| Try 'kpath gen --help' for more information.
status: 2
