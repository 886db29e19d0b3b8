# kpath run: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== run-bad-format
$ kpath run --format nope grammars/expr.ebnf tests/samples/expr/valid -- cat
stderr:
| kpath run: unknown grammar format 'nope' (expected ebnf, g4, fuzzingbook, tribble or fandango)
| Try 'kpath run --help' for more information.
status: 2

=== run-bad-shard
$ kpath run --shard 4/3 grammars/expr.ebnf tests/samples/expr/valid -- true
stderr:
| kpath run: --shard takes I/N with 1 <= I <= N, not '4/3'
| Try 'kpath run --help' for more information.
status: 2

=== run-bad-shard-form
$ kpath run --shard 2 grammars/expr.ebnf tests/samples/expr/valid -- true
stderr:
| kpath run: --shard takes I/N, like 2/4, not '2'
| Try 'kpath run --help' for more information.
status: 2

=== run-bad-timeout
$ kpath run --timeout 0 grammars/expr.ebnf tests/samples/expr/valid -- true
stderr:
| kpath run: --timeout takes whole seconds (3 or 3s), milliseconds (250ms) or minutes (2m), not 0, not '0'
| Try 'kpath run --help' for more information.
status: 2

=== run-lines-without-gcov
$ kpath run --lines grammars/expr.ebnf tests/samples/expr/valid -- true
stderr:
| kpath run: --lines needs --gcov BUILD_DIR
| Try 'kpath run --help' for more information.
status: 2

=== run-merge-without-results
$ kpath run --merge a.jsonl b.jsonl
stderr:
| kpath run: --merge needs --results OUT (where the merge goes)
| Try 'kpath run --help' for more information.
status: 2

=== run-missing-command
$ kpath run grammars/expr.ebnf tests/samples/expr/valid
stderr:
| kpath run: missing -- COMMAND after the inputs
| Try 'kpath run --help' for more information.
status: 2

=== run-missing-input
$ kpath run grammars/expr.ebnf tests/samples/expr/no-such-dir -- cat
stderr:
| tests/samples/expr/no-such-dir: error: cannot read: No such file or directory
status: 2

=== run-no-inputs
$ kpath run grammars/expr.ebnf -- cat
stderr:
| kpath run: missing INPUT|DIR... after GRAMMAR: name the inputs, or give a workspace file (saved with :save) in place of GRAMMAR to run the workspace's inputs
| Try 'kpath run --help' for more information.
status: 2

=== run-report-missing-file
$ kpath run --report tests/no-such.jsonl
stderr:
| tests/no-such.jsonl: error: cannot read: No such file or directory
status: 2

=== run-report-not-results
$ kpath run --report grammars/expr.ebnf
stderr:
| grammars/expr.ebnf:1:1: error: expected a value
status: 2

=== run-stdin-input
$ kpath run grammars/expr.ebnf - -- cat
stderr:
| kpath run: inputs are files or directories; '-' (standard input) is not one
| Try 'kpath run --help' for more information.
status: 2

=== run-timeout-units
$ kpath run --timeout 3x grammars/expr.ebnf -- true
stderr:
| kpath run: --timeout takes whole seconds (3 or 3s), milliseconds (250ms) or minutes (2m), not 0, not '3x'
| Try 'kpath run --help' for more information.
status: 2
