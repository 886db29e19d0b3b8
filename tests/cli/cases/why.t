# kpath why: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== why-every-reason
$ kpath why grammars/expr.ebnf AddExpr_0 '"-"_11' --samples tests/samples/learn/x-plus-x.txt --pin 'UnaryExpr_15 AddExpr_36' --max-depth 3
stdout:
| AddExpr_0 -> "-"_11
| pattern: AddExpr - MultExpr
| covered by none of the inputs
| why:
|   - it needs a derivation of depth at least 5 to appear at all, more than the depth limit 3
|   - it lies outside every active pin (UnaryExpr_15 AddExpr_36)
|   - relative to the inputs: its longest covered prefix is AddExpr_0 (in tests/samples/learn/x-plus-x.txt); no suffix of it is covered
| smallest input containing it (depth 5, derivation depth 12, 3 characters), beyond the depth limit:
|   x-x
status: 0

=== why-missing-path
$ kpath why grammars/expr.ebnf
stderr:
| kpath why: missing PATH after GRAMMAR
| Try 'kpath why --help' for more information.
status: 2

=== why-not-a-path
$ kpath why grammars/expr.ebnf 'AddExpr_0 UnaryExpr_8'
stderr:
| kpath why: error: not a k-path: UnaryExpr_8 does not follow AddExpr_0 (it is not reached from it through alternations, sequences and quantifiers only)
status: 2

=== why-not-produced
$ kpath why grammars/expr.ebnf 'AddExpr_0 "-"_11'
stdout:
| AddExpr_0 -> "-"_11
| pattern: AddExpr - MultExpr
| why:
|   - it is reachable within the limits and simply not produced yet
| smallest input containing it (depth 5, derivation depth 12, 3 characters):
|   x-x
status: 0

=== why-pinned-smallest
$ kpath why --pin S_17 tests/grammars/ok/pinned-smallest.ebnf '"t"_6'
stdout:
| "t"_6
| pattern: t
| why:
|   - it is reachable within the limits and simply not produced yet
| smallest input containing it (depth 9, derivation depth 13, 2 characters):
|   pt
status: 0

=== why-pinned-smallest-over-depth
$ kpath why --pin S_17 --max-depth 8 tests/grammars/ok/pinned-smallest.ebnf '"t"_6'
stdout:
| "t"_6
| pattern: t
| why:
|   - it is reachable within the limits and simply not produced yet
| smallest input containing it (depth 7, derivation depth 14, 5 characters):
|   pxxxt
status: 0

=== why-smallest-characters
$ kpath why tests/grammars/ok/smallest-characters.ebnf '"ééé"_1'
stdout:
| "ééé"_1
| pattern: ééé
| why:
|   - it is reachable within the limits and simply not produced yet
| smallest input containing it (depth 0, derivation depth 2, 3 characters, 6 bytes):
|   ééé
status: 0

=== why-smallest-not-shallowest
$ kpath why tests/grammars/ok/short-not-shallow.ebnf '"t"_11'
stdout:
| "t"_11
| pattern: t
| why:
|   - it is reachable within the limits and simply not produced yet
| smallest input containing it (depth 4, derivation depth 6, 1 character):
|   t
status: 0
