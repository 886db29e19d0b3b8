# kpath cover: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== cover-bad-k
$ kpath cover -k 0 grammars/config.ebnf
stderr:
| kpath cover: -k must be a whole number from 1 to 1000, not '0'
| Try 'kpath cover --help' for more information.
status: 2

=== cover-default-packs-up-to-60-nodes
$ kpath cover -k 2 grammars/json.ebnf
stdout:
| {"\/\b\f" :0}
| [[-90 	]]
| {"P":true,"":false}
| [0,true,false,null]
| {"\n\r\t"	
| :0}
| ["\uFabc\""
| ]
| 0E+6
| {"": 	
| 0 	
| }
| {"":""}
| {"":0, 	"":0}
| {"":0,
| "":null}
| false
| null
| true
| ""
| [0, 0]
| [0,	0]
|  	
| { 	
| "":{}}
| {"\\":[]}
| [ 	
| {}]
| 0.7e-9 	
|
| [0,
| 0]
stderr:
| strategy: kpath, close-off greedy packing up to 60 tree nodes an input, k=2, seed 1
| bounds: max depth 16, max repetitions 3, max size 2000, -n 0 (until every k-path is covered)
| inputs: 22, 219 bytes in total, 10.0 bytes on average
| suite: fewest inputs, then bytes, none more than greedy's, of 127 candidates, trees shrunk by 12 edits (greedy alone: 22 inputs, 266 bytes)
| k-path coverage:
|   k=1: 72/72 (100.0%)
|   k=2: 132/132 (100.0%)
| expansion coverage: 45/45 (100.0%)

=== cover-default-splits-a-list
$ kpath cover -k 2 grammars/ini.ebnf
stdout:
|  
|
|  L = j
|
|  [e] 
|
|  ;f
|
| #
|
stderr:
| strategy: kpath, close-off greedy packing up to 60 tree nodes an input, k=2, seed 1
| bounds: max depth 16, max repetitions 3, max size 2000, -n 0 (until every k-path is covered)
| inputs: 5, 21 bytes in total, 4.2 bytes on average
| suite: fewest inputs, then bytes, none more than greedy's, of 20 candidates, then 1 input split into its repetitions (no more bytes) (greedy alone: 3 inputs, 21 bytes)
| k-path coverage:
|   k=1: 29/29 (100.0%)
|   k=2: 34/34 (100.0%)
| expansion coverage: 15/15 (100.0%)

=== cover-huge-repetition
$ kpath cover -k 1 tests/grammars/ok/huge-repetition.ebnf
stderr:
| tests/grammars/ok/huge-repetition.ebnf:2:1: error: rule Body: its smallest derivation has 4294967295 tree nodes, more than the size budget (--max-size 2000); the smallest input needs --max-size 4294967299, beyond its largest value 4294967294
status: 2

=== cover-minutes-needs-recurrent
$ kpath cover --minutes 1 grammars/expr.ebnf
stderr:
| kpath cover: --minutes needs --recurrent (without it, generation ends at full coverage)
| Try 'kpath cover --help' for more information.
status: 2

=== cover-minutes-not-a-number
$ kpath cover --recurrent --minutes 0 grammars/expr.ebnf
stderr:
| kpath cover: --minutes must be a number of minutes above 0 and at most 525600, not '0'
| Try 'kpath cover --help' for more information.
status: 2

=== cover-output-is-a-file
$ kpath cover -o grammars/expr.ebnf --force grammars/expr.ebnf
stderr:
| kpath cover: error: grammars/expr.ebnf exists and is not a directory
status: 2

=== cover-recurrent-keep-redundant
$ kpath cover --recurrent -n 3 --keep-redundant grammars/expr.ebnf
stderr:
| kpath cover: --keep-redundant and --recurrent exclude each other (the recurrent mode keeps every input)
| Try 'kpath cover --help' for more information.
status: 2

=== cover-recurrent-needs-count
$ kpath cover --recurrent grammars/expr.ebnf
stderr:
| kpath cover: --recurrent needs -n N (inputs) or --minutes M: it generates until one of them stops it
| Try 'kpath cover --help' for more information.
status: 2

=== cover-rejects-strategy
$ kpath cover --strategy random grammars/expr.ebnf
stderr:
| kpath cover: unknown option '--strategy'
| Try 'kpath cover --help' for more information.
status: 2

=== cover-stream-with-json
$ kpath cover --stream --json grammars/expr.ebnf
stderr:
| kpath cover: --stream and --json exclude each other (the JSON document is written at the end)
| Try 'kpath cover --help' for more information.
status: 2

=== cover-stream-with-output
$ kpath cover --stream -o build/never-made grammars/expr.ebnf
stderr:
| kpath cover: --stream and -o exclude each other (--stream writes to stdout; -o writes the files at the end)
| Try 'kpath cover --help' for more information.
status: 2

=== cover-target-bad-lines
$ kpath cover --target tests/grammars/targets/expr-bad.txt grammars/expr.ebnf
stderr:
| tests/grammars/targets/expr-bad.txt:2:1: error: no node 'Nope_3' in grammars/expr.ebnf: node 3 is ~_3
| tests/grammars/targets/expr-bad.txt:3:3: error: not a k-path: "/"_24 does not follow AddExpr_0 (it is not reached from it through alternations, sequences and quantifiers only)
| tests/grammars/targets/expr-bad.txt:4:1: error: a 3-path, but the first line has 2-paths (every line holds a path of the same length)
| tests/grammars/targets/expr-bad.txt:5:2: error: no node in the line
status: 2

=== cover-target-empty
$ kpath cover --target tests/grammars/targets/empty.txt grammars/expr.ebnf
stderr:
| tests/grammars/targets/empty.txt: error: no k-path in the file (one a line, as kpath paths prints them)
status: 2

=== cover-target-k-mismatch
$ kpath cover -k 3 --target tests/grammars/targets/expr-three.txt grammars/expr.ebnf
stderr:
| tests/grammars/targets/expr-three.txt:3:1: error: a 2-path, but -k asks for 3-paths
| tests/grammars/targets/expr-three.txt:4:3: error: a 2-path, but -k asks for 3-paths
| tests/grammars/targets/expr-three.txt:5:1: error: a 2-path, but -k asks for 3-paths
| tests/grammars/targets/expr-three.txt:6:1: error: a 2-path, but -k asks for 3-paths
status: 2

=== cover-unreachable-by-size
$ kpath cover -k 2 --max-size 12 tests/grammars/ok/explosive.ebnf
stdout:
| (x)x
stderr:
| strategy: kpath, close-off greedy, k=2, seed 1
| bounds: max depth 16, max repetitions 3, max size 12, -n 0 (until every k-path is covered)
| inputs: 1, 4 bytes in total, 4.0 bytes on average
| suite: fewest inputs, then bytes, none more than greedy's, of 3 candidates (greedy alone: 1 input, 4 bytes)
| k-path coverage:
|   k=1: 6/8 (75.0%)
|   k=2: 2/20 (10.0%)
| expansion coverage: 3/3 (100.0%)
| uncovered 2-paths: 18
|   S_11 -> "("_3 needs 27 tree nodes (--max-size 12)
|   S_11 -> S_4 needs 27 tree nodes (--max-size 12)
|   S_11 -> ")"_5 needs 27 tree nodes (--max-size 12)
|   S_11 -> S_6 needs 27 tree nodes (--max-size 12)
|   S_11 -> L_7 needs 27 tree nodes (--max-size 12)
|   S_4 -> "("_3 needs 22 tree nodes (--max-size 12)
|   S_4 -> S_4 needs 22 tree nodes (--max-size 12)
|   S_4 -> ")"_5 needs 22 tree nodes (--max-size 12)
|   S_4 -> S_6 needs 22 tree nodes (--max-size 12)
|   S_4 -> L_7 needs 22 tree nodes (--max-size 12)
|   S_6 -> "("_3 needs 22 tree nodes (--max-size 12)
|   S_6 -> S_4 needs 22 tree nodes (--max-size 12)
|   S_6 -> ")"_5 needs 22 tree nodes (--max-size 12)
|   S_6 -> S_6 needs 22 tree nodes (--max-size 12)
|   S_6 -> L_7 needs 22 tree nodes (--max-size 12)
|   L_7 -> ","_10 needs 17 tree nodes (--max-size 12)
|   L_7 -> S_11 needs 17 tree nodes (--max-size 12)
|   S_11 -> "x"_1 needs 17 tree nodes (--max-size 12)
status: 0
