# kpath bonsai: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== bonsai-force-without-output
$ kpath bonsai --force grammars/expr.ebnf
stderr:
| kpath bonsai: --force needs -o DIR
| Try 'kpath bonsai --help' for more information.
status: 2

=== bonsai-output-not-empty
$ kpath bonsai -o tests/samples/expr grammars/expr.ebnf
stderr:
| kpath bonsai: error: tests/samples/expr is not empty (use --force to replace its test cases)
status: 2

=== bonsai-run-no-command
$ kpath bonsai grammars/json.ebnf --run
stderr:
| kpath bonsai: --run needs the command after '--': --run -- COMMAND [ARG...]
| Try 'kpath bonsai --help' for more information.
status: 2

=== bonsai-runs-without-run
$ kpath bonsai --runs /tmp/nowhere grammars/json.ebnf
stderr:
| kpath bonsai: --gcov, --node-coverage, --features-cmd and --runs need --run
| Try 'kpath bonsai --help' for more information.
status: 2

=== bonsai-zero-depth
$ kpath bonsai --max-depth 0 grammars/expr.ebnf
stderr:
| kpath bonsai: --max-depth must be a whole number from 1 to 1000, not '0'
| Try 'kpath bonsai --help' for more information.
status: 2
