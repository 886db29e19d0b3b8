# kpath explain: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== explain-absent-condition
$ kpath explain -k 1 --no-balance grammars/json.ebnf tests/explain/json/fractions.jsonl
stdout:
| 6 inputs of tests/explain/json/fractions.jsonl (0 skipped), 6 for training; k-paths of length 1..1: 26 features
| trees: gini, depth 1..8, every training input (chosen per feature by cross-validation on the training inputs), seed 1
|
| exit:0  (reached by 3 of 6 training inputs; tree of 3 nodes on 6)
|   cross-validated accuracy 1.00 (3 folds; every input, depth 1) against 0.50 for always answering "not reached" (majority baseline)
|   exit:0  ⇐  lacks  -? int frac exp?   (3 inputs, precision 1.00)
|
| exit:1  (reached by 3 of 6 training inputs; tree of 3 nodes on 6)
|   cross-validated accuracy 1.00 (3 folds; every input, depth 1) against 0.50 for always answering "not reached" (majority baseline)
|   exit:1  ⇐  contains  -? int frac exp?   (3 inputs, precision 1.00)
status: 0

=== explain-absent-condition-json
$ kpath explain -k 1 --no-balance --json --feature exit:0 grammars/json.ebnf tests/explain/json/fractions.jsonl
stdout:
| {"results": "tests/explain/json/fractions.jsonl", "inputs": 6, "skipped": 0, "train": 6, "k": 1, "kpath_features": 26, "criterion": "gini", "max_depth": 8, "depth_auto": true, "balanced": false, "balance_auto": false, "seed": 1, "min_reaching": 3, "min_precision": 0.50,
|   "features": [
|     {"name": "exit:0", "kind": "trainable", "reached": 3, "not_reached": 3, "explained": true, "balanced": false, "depth": 1, "folds": 3, "cv_accuracy": 1.000, "baseline": {"answer": false, "cv_accuracy": 0.500}, "sample": 6,
|      "tree": [
|        {"reached": 3, "not_reached": 3, "path": [44], "absent": 1, "present": 2},
|        {"reached": 3, "not_reached": 0, "predicts": true},
|        {"reached": 0, "not_reached": 3, "predicts": false}],
|      "rules": [
|        {"conditions": [{"present": false, "path": [44], "names": "frac_44", "pattern": "-? int frac exp?"}], "support": 3, "reaching": 3, "precision": 1.000, "weak": false}
|      ]}
|   ],
|   "test": null
| }
status: 0

=== explain-bad-criterion
$ kpath explain --criterion gain grammars/expr.ebnf tests/explain/expr/train.jsonl
stderr:
| kpath explain: --criterion must be gini or entropy, not 'gain'
| Try 'kpath explain --help' for more information.
status: 2

=== explain-bad-min-precision
$ kpath explain --min-precision 0.125 grammars/json.ebnf tests/explain/json/fractions.jsonl
stderr:
| kpath explain: --min-precision must be a number from 0 to 1 with at most two decimals (0.5, 0.75), not '0.125'
| Try 'kpath explain --help' for more information.
status: 2

=== explain-bad-regex
$ kpath explain --feature 'fn:(' grammars/expr.ebnf tests/explain/expr/train.jsonl
stderr:
| kpath explain: --feature 'fn:(' is no feature's name and not a regular expression: Unmatched ( or \(
status: 2

=== explain-input-named-dash
$ kpath explain grammars/expr.ebnf tests/explain/expr/dash.jsonl
stderr:
| ./-: warning: cannot read: No such file or directory (input skipped)
| kpath explain: 1 input of tests/explain/expr/dash.jsonl skipped (not readable, changed since the run, or not parsed)
| kpath explain: error: no input of tests/explain/expr/dash.jsonl could be parsed; nothing to learn from
status: 2

=== explain-known-conjunction
$ kpath explain -k 2 --no-balance --feature fn:mul_add --test tests/explain/expr/test.jsonl grammars/expr.ebnf tests/explain/expr/train.jsonl
stdout:
| 60 inputs of tests/explain/expr/train.jsonl (0 skipped), 60 for training; k-paths of length 1..2: 148 features
| trees: gini, depth 1..8, every training input (chosen per feature by cross-validation on the training inputs), seed 1
|
| fn:mul_add  (reached by 9 of 60 training inputs; tree of 5 nodes on 60)
|   cross-validated accuracy 0.93 (5 folds; every input, depth 3) against 0.85 for always answering "not reached" (majority baseline)
|   fn:mul_add  ⇐  contains  MultExpr * UnaryExpr  and  contains  AddExpr + MultExpr   (9 inputs, precision 1.00)
|
| metrics on tests/explain/expr/test.jsonl (30 inputs), trainable features:
|   feature     accuracy  baseline  precision  recall     TP     FP     TN     FN
|   fn:mul_add  1.000     0.833     1.000      1.000       5      0     25      0
|   median      1.000     0.833     1.000      1.000
status: 0

=== explain-missing-results
$ kpath explain grammars/expr.ebnf tests/explain/expr/none.jsonl
stderr:
| tests/explain/expr/none.jsonl: error: cannot read: No such file or directory
status: 2

=== explain-no-such-feature
$ kpath explain --feature 'fn:nothing' grammars/expr.ebnf tests/explain/expr/train.jsonl
stderr:
| kpath explain: no behaviour feature matches --feature 'fn:nothing'
status: 2

=== explain-not-results
$ kpath explain grammars/expr.ebnf grammars/expr.ebnf
stderr:
| grammars/expr.ebnf:1:1: error: expected a value
status: 2

=== explain-nothing-parsed
$ kpath explain grammars/expr.ebnf tests/explain/expr/all-bad.jsonl
stderr:
| tests/explain/expr/bad.txt:1:3: warning: no parse: unexpected end of input; expected one of '(', '+', '++', '-', '--', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'x', 'y', 'z' (input skipped)
| kpath explain: 1 input of tests/explain/expr/all-bad.jsonl skipped (not readable, changed since the run, or not parsed)
| kpath explain: error: no input of tests/explain/expr/all-bad.jsonl could be parsed; nothing to learn from
status: 2

=== explain-other-grammar
$ kpath explain -k 1 --feature fn:paren grammars/expr.ebnf tests/explain/expr/other-grammar.jsonl
stdout:
| 4 inputs of tests/explain/expr/other-grammar.jsonl (0 skipped), 4 for training; k-paths of length 1..1: 28 features
| trees: gini, depth 1..8, class-balanced samples or every training input (chosen per feature by cross-validation on the training inputs), seed 1
|
| fn:paren  (reached by 1 of 4 training inputs; tree of 3 nodes on 2)
|   accuracy on the training inputs 1.00 (too few inputs to cross-validate; class-balanced, depth 5) against 0.75 for always answering "not reached" (majority baseline)
|   fn:paren  ⇐  contains  ( AddExpr )   (1 input, precision 1.00, weak)
|     weak rule: only 1 input reaching fn:paren matches it (fewer than --min-reaching 3)
stderr:
| tests/explain/expr/other-grammar.jsonl: warning: recorded with another grammar than grammars/expr.ebnf (grammar_sha256 differs): its inputs may not parse, or not the same way
status: 0

=== explain-regex-json
$ kpath explain -k 1 --no-balance --feature '^fn:p' --json grammars/expr.ebnf tests/explain/expr/train.jsonl
stdout:
| {"results": "tests/explain/expr/train.jsonl", "inputs": 60, "skipped": 0, "train": 60, "k": 1, "kpath_features": 39, "criterion": "gini", "max_depth": 8, "depth_auto": true, "balanced": false, "balance_auto": false, "seed": 1, "min_reaching": 3, "min_precision": 0.50,
|   "features": [
|     {"name": "fn:paren", "kind": "trainable", "reached": 10, "not_reached": 50, "explained": true, "balanced": false, "depth": 1, "folds": 5, "cv_accuracy": 1.000, "baseline": {"answer": false, "cv_accuracy": 0.833}, "sample": 60,
|      "tree": [
|        {"reached": 10, "not_reached": 50, "path": [35], "absent": 1, "present": 2},
|        {"reached": 0, "not_reached": 50, "predicts": false},
|        {"reached": 10, "not_reached": 0, "predicts": true}],
|      "rules": [
|        {"conditions": [{"present": true, "path": [35], "names": "\"(\"_35", "pattern": "( AddExpr )"}], "support": 10, "reaching": 10, "precision": 1.000, "weak": false}
|      ]}
|   ],
|   "test": null
| }
status: 0

=== explain-skips-inputs
$ kpath explain -k 1 grammars/expr.ebnf tests/explain/expr/skip.jsonl
stdout:
| 4 inputs of tests/explain/expr/skip.jsonl (2 skipped), 4 for training; k-paths of length 1..1: 28 features
| trees: gini, depth 1..8, class-balanced samples or every training input (chosen per feature by cross-validation on the training inputs), seed 1
|
| fn:mul_add  (reached by 1 of 4 training inputs; tree of 3 nodes on 2)
|   accuracy on the training inputs 1.00 (too few inputs to cross-validate; class-balanced, depth 5) against 0.75 for always answering "not reached" (majority baseline)
|   fn:mul_add  ⇐  contains  AddExpr + MultExpr   (1 input, precision 1.00, weak)
|     weak rule: only 1 input reaching fn:mul_add matches it (fewer than --min-reaching 3)
|
| fn:paren  (reached by 1 of 4 training inputs; tree of 3 nodes on 2)
|   accuracy on the training inputs 1.00 (too few inputs to cross-validate; class-balanced, depth 5) against 0.75 for always answering "not reached" (majority baseline)
|   fn:paren  ⇐  contains  ( AddExpr )   (1 input, precision 1.00, weak)
|     weak rule: only 1 input reaching fn:paren matches it (fewer than --min-reaching 3)
|
| reached by every training input: exit:0
| reached by no training input: signal:SIGSEGV
stderr:
| tests/explain/expr/bad.txt:1:3: warning: no parse: unexpected end of input; expected one of '(', '+', '++', '-', '--', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'x', 'y', 'z' (input skipped)
| missing.txt: warning: cannot read: No such file or directory (input skipped)
| kpath explain: 2 inputs of tests/explain/expr/skip.jsonl skipped (not readable, changed since the run, or not parsed)
status: 0

=== explain-split-range
$ kpath explain --split 100 grammars/expr.ebnf tests/explain/expr/train.jsonl
stderr:
| kpath explain: --split must be a whole number from 1 to 99, not '100'
| Try 'kpath explain --help' for more information.
status: 2

=== explain-test-and-split
$ kpath explain --test tests/explain/expr/test.jsonl --split 20 grammars/expr.ebnf tests/explain/expr/train.jsonl
stderr:
| kpath explain: --test and --split cannot be used together
| Try 'kpath explain --help' for more information.
status: 2

=== explain-two-results
$ kpath explain grammars/expr.ebnf tests/explain/expr/train.jsonl tests/explain/expr/test.jsonl
stderr:
| kpath explain: expected GRAMMAR and one RESULTS file, got 2 files
| Try 'kpath explain --help' for more information.
status: 2

=== explain-weak-rule
$ kpath explain -k 1 --no-balance grammars/json.ebnf tests/explain/json/one-crash.jsonl
stdout:
| 6 inputs of tests/explain/json/one-crash.jsonl (0 skipped), 6 for training; k-paths of length 1..1: 26 features
| trees: gini, depth 1..8, every training input (chosen per feature by cross-validation on the training inputs), seed 1
|
| exit:0  (reached by 5 of 6 training inputs; tree of 3 nodes on 6)
|   accuracy on the training inputs 1.00 (too few inputs to cross-validate; every input, depth 5) against 0.83 for always answering "reached" (majority baseline)
|   exit:0  ⇐  lacks  - int frac? exp?   (5 inputs, precision 1.00)
|
| signal:SIGSEGV  (reached by 1 of 6 training inputs; tree of 3 nodes on 6)
|   accuracy on the training inputs 1.00 (too few inputs to cross-validate; every input, depth 5) against 0.83 for always answering "not reached" (majority baseline)
|   signal:SIGSEGV  ⇐  contains  - int frac? exp?   (1 input, precision 1.00, weak)
|     weak rule: only 1 input reaching signal:SIGSEGV matches it (fewer than --min-reaching 3)
status: 0

=== explain-weak-thresholds
$ kpath explain -k 1 --no-balance --min-reaching 4 --min-precision 1 --feature exit:1 grammars/json.ebnf tests/explain/json/fractions.jsonl
stdout:
| 6 inputs of tests/explain/json/fractions.jsonl (0 skipped), 6 for training; k-paths of length 1..1: 26 features
| trees: gini, depth 1..8, every training input (chosen per feature by cross-validation on the training inputs), seed 1
|
| exit:1  (reached by 3 of 6 training inputs; tree of 3 nodes on 6)
|   cross-validated accuracy 1.00 (3 folds; every input, depth 1) against 0.50 for always answering "not reached" (majority baseline)
|   exit:1  ⇐  contains  -? int frac exp?   (3 inputs, precision 1.00, weak)
|     weak rule: only 3 inputs reaching exit:1 match it (fewer than --min-reaching 4)
status: 0
