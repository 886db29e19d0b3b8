# kpath target: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== target-always
$ kpath target --feature exit:0 grammars/expr.ebnf tests/explain/expr/train.jsonl
stderr:
| kpath target: exit:0 is reached by every one of the 60 parsed inputs: no rule tells what leads there
status: 2

=== target-bad-attempts
$ kpath target --attempts 0 --feature fn:mul_add grammars/expr.ebnf tests/explain/expr/train.jsonl
stderr:
| kpath target: --attempts must be a whole number from 1 to 1000000, not '0'
| Try 'kpath target --help' for more information.
status: 2

=== target-command-without-run
$ kpath target --feature fn:mul_add grammars/expr.ebnf tests/explain/expr/train.jsonl -- cat
stderr:
| kpath target: a command after '--' is run only with --run
| Try 'kpath target --help' for more information.
status: 2

=== target-depth-too-small
$ kpath target -k 2 --no-balance --gen-depth 2 --feature fn:mul_add grammars/expr.ebnf tests/explain/expr/train.jsonl
stderr:
| fn:mul_add: 1 rule from a tree of 5 nodes (gini, max depth 3, every input, seed 1)
|   cross-validated accuracy 0.93 (5 folds; every input, depth 3) against 0.85 for always answering "not reached" (majority baseline)
| rule 1: contains  MultExpr * UnaryExpr  and  contains  AddExpr + MultExpr   (9 inputs, precision 1.00)
|   requires   "*"_23
|   requires   "+"_10
|   unsatisfiable within the depth limit: the shallowest input needs depth 4 (limit 2)
| kpath target: no input could be generated for fn:mul_add
status: 1

=== target-feature-typo
$ kpath target --feature fn:mul_ad grammars/expr.ebnf tests/explain/expr/train.jsonl
stderr:
| kpath target: no input of tests/explain/expr/train.jsonl reaches a feature called 'fn:mul_ad' (did you mean 'fn:mul_add'?): target learns from the inputs that reach a feature, so some must (`kpath explain grammars/expr.ebnf tests/explain/expr/train.jsonl` lists the 3 features they reach)
status: 2

=== target-gcov-without-run
$ kpath target --feature fn:mul_add --gcov build grammars/expr.ebnf tests/explain/expr/train.jsonl
stderr:
| kpath target: --gcov, --node-coverage, --features-cmd and --runs need --run
| Try 'kpath target --help' for more information.
status: 2

=== target-no-feature
$ kpath target grammars/expr.ebnf tests/explain/expr/train.jsonl
stderr:
| kpath target: --feature NAME is required
| Try 'kpath target --help' for more information.
status: 2

=== target-run-missing-command
$ kpath target -n 1 --feature fn:mul_add grammars/expr.ebnf tests/explain/expr/train.jsonl --run -- /nonexistent/calc
stderr:
| kpath target: error: /nonexistent/calc: no such command
status: 2

=== target-run-no-command
$ kpath target --feature fn:mul_add grammars/expr.ebnf tests/explain/expr/train.jsonl --run
stderr:
| kpath target: --run needs the command after '--': --run -- COMMAND [ARG...]
| Try 'kpath target --help' for more information.
status: 2

=== target-unknown
$ kpath target --feature fn:none grammars/expr.ebnf tests/explain/expr/train.jsonl
stderr:
| kpath target: no input of tests/explain/expr/train.jsonl reaches a feature called 'fn:none': target learns from the inputs that reach a feature, so some must (`kpath explain grammars/expr.ebnf tests/explain/expr/train.jsonl` lists the 3 features they reach)
status: 2
