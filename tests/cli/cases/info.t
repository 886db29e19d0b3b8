# kpath info: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== info-expr
$ kpath info grammars/expr.ebnf
stdout:
| grammar: grammars/expr.ebnf
| start rule: Expr
| rules: 7
| nodes: 54 (39 symbolic, 15 synthetic)
| shortest input: 1 character, derivation depth 4
| k-paths:
|   k=1: 39
|   k=2: 125
|   k=3: 523
|   k=4: 2331
|   k=5: 10245
status: 0

=== info-format-unknown
$ kpath info --format xml grammars/expr.ebnf
stderr:
| kpath info: unknown grammar format 'xml' (expected ebnf, g4, fuzzingbook, tribble or fandango)
| Try 'kpath info --help' for more information.
status: 2

=== info-g4-start-used-elsewhere
$ kpath info -k 2 tests/grammars/formats/EntryFirst.g4
stdout:
| grammar: tests/grammars/formats/EntryFirst.g4
| start rule: stmt (the root is _start := _skip stmt: skip tokens may begin the input)
| rules: 7 (2 unreachable)
| nodes: 13 (9 symbolic, 4 synthetic)
| shortest input: 4 characters, derivation depth 2
| k-paths:
|   k=1: 9
|   k=2: 9
stderr:
| tests/grammars/formats/EntryFirst.g4:8:1: warning: 2 rules are unreachable from the start rule 'stmt' (give --start to choose another); the first is here: 'prepare', 'hint'
status: 0

=== info-g4-start-used-elsewhere-json
$ kpath info -k 1 --json tests/grammars/formats/EntryFirst.g4
stdout:
| {"grammar": "tests/grammars/formats/EntryFirst.g4", "start": "stmt", "start_wrapper": "_start", "rules": 7, "reachable_rules": 5, "nodes": 13, "symbolic": 9, "synthetic": 4, "shortest_length": 4, "shortest_depth": 2, "predicates": 0, "actions": 0, "kpaths": [{"k": 1, "count": 9, "saturated": false}]}
stderr:
| tests/grammars/formats/EntryFirst.g4:8:1: warning: 2 rules are unreachable from the start rule 'stmt' (give --start to choose another); the first is here: 'prepare', 'hint'
status: 0

=== info-missing-grammar-did-you-mean
$ kpath info grammars/exp.ebnf
stderr:
| grammars/exp.ebnf: error: cannot read: No such file or directory; did you mean grammars/expr.ebnf?
status: 2

=== usage-missing-grammar
$ kpath info
stderr:
| kpath info: missing GRAMMAR
| Try 'kpath info --help' for more information.
status: 2
