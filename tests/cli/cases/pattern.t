# kpath pattern: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== pattern-expr-plus
$ kpath pattern grammars/expr.ebnf 'AddExpr_0 "+"_10'
stdout:
| AddExpr [+] MultExpr
status: 0

=== pattern-groups
$ kpath pattern tests/grammars/contexts/groups.ebnf 'E_14 "e"_20'
stdout:
| a c (d | E)* [[e] g{2}] (d | E)* ;
status: 0

=== pattern-ids
$ kpath pattern --ids grammars/expr.ebnf 0 10
stdout:
| AddExpr [+] MultExpr
status: 0

=== pattern-ids-not-numeric
$ kpath pattern --ids grammars/expr.ebnf AddExpr_0 10
stderr:
| kpath pattern: 'AddExpr_0' is not a node id (with --ids, write ids like 0 10)
status: 2

=== pattern-json
$ kpath pattern --json grammars/expr.ebnf 'AddExpr_0 "+"_10'
stdout:
| {"path": [0, 10], "pattern": "AddExpr [+] MultExpr"}
status: 0

=== pattern-missing-path
$ kpath pattern grammars/expr.ebnf
stderr:
| kpath pattern: missing PATH... after GRAMMAR
| Try 'kpath pattern --help' for more information.
status: 2

=== pattern-no-such-id
$ kpath pattern --ids grammars/expr.ebnf 0 99
stderr:
| kpath pattern: error: there is no node 99: the nodes of grammars/expr.ebnf are 0 to 53
status: 2

=== pattern-not-a-kpath
$ kpath pattern grammars/expr.ebnf AddExpr_0 '"*"_23'
stderr:
| kpath pattern: error: not a k-path: "*"_23 does not follow AddExpr_0 (it is not reached from it through alternations, sequences and quantifiers only)
status: 2

=== pattern-pasted-from-paths
$ kpath pattern grammars/expr.ebnf 'AddExpr_0 -> "+"_10'
stdout:
| AddExpr [+] MultExpr
status: 0

=== pattern-quoted
$ kpath pattern --quoted grammars/expr.ebnf AddExpr_0 AddExpr_5 MultExpr_2 UnaryExpr_8 '"("_35'
stdout:
| [[[["("] AddExpr ")"]]] ("+" | "-") MultExpr
status: 0

=== pattern-separate-arguments
$ kpath pattern grammars/expr.ebnf AddExpr_0 '"+"_10'
stdout:
| AddExpr [+] MultExpr
status: 0

=== pattern-spaces-in-names
$ kpath pattern tests/grammars/contexts/numbers.ebnf '<expr>_0 " + "_6'
stdout:
| <term> [" + "] <expr>
status: 0

=== pattern-synthetic-node
$ kpath pattern --ids grammars/expr.ebnf 0 1
stderr:
| kpath pattern: error: not a k-path: node |_1 is an alt node; a k-path has only references, literals and classes
status: 2

=== pattern-unknown-node
$ kpath pattern grammars/expr.ebnf AddExpr_0 Foo_3
stderr:
| kpath pattern: error: no node 'Foo_3' in grammars/expr.ebnf: node 3 is ~_3
status: 2

=== pattern-unquoted-parentheses
$ kpath pattern grammars/expr.ebnf AddExpr_0 AddExpr_5 MultExpr_2 UnaryExpr_8 '"("_35'
stdout:
| [[[[(] AddExpr )]]] (+ | -) MultExpr
status: 0

=== pattern-wrong-label
$ kpath pattern grammars/expr.ebnf AddExpr_0 AddExpr_10
stderr:
| kpath pattern: error: no node 'AddExpr_10' in grammars/expr.ebnf: node 10 is "+"_10
status: 2

=== pattern-marks-tell-paths-apart
$ kpath pattern grammars/expr.ebnf AddExpr_0 AddExpr_5
stdout:
| [AddExpr] (+ | -) MultExpr
status: 0

=== pattern-marks-tell-paths-apart-2
$ kpath pattern grammars/expr.ebnf AddExpr_0 MultExpr_7
stdout:
| AddExpr (+ | -) [MultExpr]
status: 0

=== pattern-one-digit-among-others
$ kpath pattern grammars/expr.ebnf DecDigits_22 DecDigit_42 '"4"_48'
stdout:
| DecDigit* [[4]] DecDigit*
status: 0

=== pattern-unmarked
$ kpath pattern --unmarked grammars/expr.ebnf DecDigits_22 DecDigit_42 '"4"_48'
stdout:
| DecDigit* 4 DecDigit*
status: 0

=== pattern-skip-left-out
$ kpath pattern tests/grammars/formats/EntryFirst.g4 stmt_2 NAME_8
stdout:
| [run [NAME]]
stderr:
| tests/grammars/formats/EntryFirst.g4:8:1: warning: 2 rules are unreachable from the start rule 'stmt' (give --start to choose another); the first is here: 'prepare', 'hint'
status: 0

=== pattern-skip-kept
$ kpath pattern --skip-paths tests/grammars/formats/EntryFirst.g4 stmt_2 NAME_8
stdout:
| _skip [run _skip [NAME] _skip]
stderr:
| tests/grammars/formats/EntryFirst.g4:8:1: warning: 2 rules are unreachable from the start rule 'stmt' (give --start to choose another); the first is here: 'prepare', 'hint'
status: 0
