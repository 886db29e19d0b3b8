# kpath paths: golden cases, run by tests/cli/run.sh, which
# describes this format.

=== paths-expr-count
$ kpath paths -k 2 --count grammars/expr.ebnf
stdout:
| 125
status: 0

=== paths-expr-k1-count
$ kpath paths --count -k1 grammars/expr.ebnf
stdout:
| 39
status: 0

=== paths-fsm-k2
$ kpath paths -k 2 grammars/fsm.ebnf
stdout:
| q1_0 -> "ping"_4
| q1_0 -> q1_5
| q1_0 -> "auth"_6
| q1_0 -> q2_7
| q1_5 -> "ping"_4
| q1_5 -> q1_5
| q1_5 -> "auth"_6
| q1_5 -> q2_7
| q2_7 -> ""_11
| q2_7 -> "auth"_12
| q2_7 -> q2_13
| q2_7 -> "connect"_14
| q2_7 -> q3_15
| q2_13 -> ""_11
| q2_13 -> "auth"_12
| q2_13 -> q2_13
| q2_13 -> "connect"_14
| q2_13 -> q3_15
| q3_15 -> "cmd"_19
| q3_15 -> q3_20
| q3_15 -> "quit"_21
| q3_15 -> q2_22
| q3_20 -> "cmd"_19
| q3_20 -> q3_20
| q3_20 -> "quit"_21
| q3_20 -> q2_22
| q2_22 -> ""_11
| q2_22 -> "auth"_12
| q2_22 -> q2_13
| q2_22 -> "connect"_14
| q2_22 -> q3_15
status: 0

=== paths-fsm-k2-ids
$ kpath paths -k 2 --ids grammars/fsm.ebnf
stdout:
| 0 4
| 0 5
| 0 6
| 0 7
| 5 4
| 5 5
| 5 6
| 5 7
| 7 11
| 7 12
| 7 13
| 7 14
| 7 15
| 13 11
| 13 12
| 13 13
| 13 14
| 13 15
| 15 19
| 15 20
| 15 21
| 15 22
| 20 19
| 20 20
| 20 21
| 20 22
| 22 11
| 22 12
| 22 13
| 22 14
| 22 15
status: 0

=== paths-fsm-k3-count
$ kpath paths -k 3 --count grammars/fsm.ebnf
stdout:
| 63
status: 0

=== paths-json
$ kpath paths -k 1 --json --ids grammars/fsm.ebnf
stdout:
| {"k": 1, "count": 14, "saturated": false, "paths": [
|   [0],
|   [4],
|   [5],
|   [6],
|   [7],
|   [11],
|   [12],
|   [13],
|   [14],
|   [15],
|   [19],
|   [20],
|   [21],
|   [22]
| ]}
status: 0

=== paths-patterns-expr
$ kpath paths -k 2 --patterns grammars/expr.ebnf
stdout:
| AddExpr_0 -> MultExpr_2	[MultExpr]
| AddExpr_0 -> AddExpr_5	[AddExpr] (+ | -) MultExpr
| AddExpr_0 -> MultExpr_7	AddExpr (+ | -) [MultExpr]
| AddExpr_0 -> "+"_10	AddExpr [+] MultExpr
| AddExpr_0 -> "-"_11	AddExpr [-] MultExpr
| MultExpr_2 -> UnaryExpr_8	[UnaryExpr]
| MultExpr_2 -> MultExpr_13	[MultExpr] (* | / | %) UnaryExpr
| MultExpr_2 -> UnaryExpr_15	MultExpr (* | / | %) [UnaryExpr]
| MultExpr_2 -> "*"_23	MultExpr [*] UnaryExpr
| MultExpr_2 -> "/"_24	MultExpr [/] UnaryExpr
| MultExpr_2 -> "%"_25	MultExpr [%] UnaryExpr
| AddExpr_5 -> MultExpr_2	[[MultExpr]] (+ | -) MultExpr
| AddExpr_5 -> AddExpr_5	[[AddExpr] (+ | -) MultExpr] (+ | -) MultExpr
| AddExpr_5 -> MultExpr_7	[AddExpr (+ | -) [MultExpr]] (+ | -) MultExpr
| AddExpr_5 -> "+"_10	[AddExpr [+] MultExpr] (+ | -) MultExpr
| AddExpr_5 -> "-"_11	[AddExpr [-] MultExpr] (+ | -) MultExpr
| MultExpr_7 -> UnaryExpr_8	AddExpr (+ | -) [[UnaryExpr]]
| MultExpr_7 -> MultExpr_13	AddExpr (+ | -) [[MultExpr] (* | / | %) UnaryExpr]
| MultExpr_7 -> UnaryExpr_15	AddExpr (+ | -) [MultExpr (* | / | %) [UnaryExpr]]
| MultExpr_7 -> "*"_23	AddExpr (+ | -) [MultExpr [*] UnaryExpr]
| MultExpr_7 -> "/"_24	AddExpr (+ | -) [MultExpr [/] UnaryExpr]
| MultExpr_7 -> "%"_25	AddExpr (+ | -) [MultExpr [%] UnaryExpr]
| UnaryExpr_8 -> Identifier_16	[Identifier]
| UnaryExpr_8 -> DecDigits_22	[DecDigits]
| UnaryExpr_8 -> "+"_27	[+] UnaryExpr
| UnaryExpr_8 -> UnaryExpr_28	+ [UnaryExpr]
| UnaryExpr_8 -> "-"_29	[-] UnaryExpr
| UnaryExpr_8 -> UnaryExpr_30	- [UnaryExpr]
| UnaryExpr_8 -> "++"_31	[++] UnaryExpr
| UnaryExpr_8 -> UnaryExpr_32	++ [UnaryExpr]
| UnaryExpr_8 -> "--"_33	[--] UnaryExpr
| UnaryExpr_8 -> UnaryExpr_34	-- [UnaryExpr]
| UnaryExpr_8 -> "("_35	[(] AddExpr )
| UnaryExpr_8 -> AddExpr_36	( [AddExpr] )
| UnaryExpr_8 -> ")"_37	( AddExpr [)]
| MultExpr_13 -> UnaryExpr_8	[[UnaryExpr]] (* | / | %) UnaryExpr
| MultExpr_13 -> MultExpr_13	[[MultExpr] (* | / | %) UnaryExpr] (* | / | %) UnaryExpr
| MultExpr_13 -> UnaryExpr_15	[MultExpr (* | / | %) [UnaryExpr]] (* | / | %) UnaryExpr
| MultExpr_13 -> "*"_23	[MultExpr [*] UnaryExpr] (* | / | %) UnaryExpr
| MultExpr_13 -> "/"_24	[MultExpr [/] UnaryExpr] (* | / | %) UnaryExpr
| MultExpr_13 -> "%"_25	[MultExpr [%] UnaryExpr] (* | / | %) UnaryExpr
| UnaryExpr_15 -> Identifier_16	MultExpr (* | / | %) [[Identifier]]
| UnaryExpr_15 -> DecDigits_22	MultExpr (* | / | %) [[DecDigits]]
| UnaryExpr_15 -> "+"_27	MultExpr (* | / | %) [[+] UnaryExpr]
| UnaryExpr_15 -> UnaryExpr_28	MultExpr (* | / | %) [+ [UnaryExpr]]
| UnaryExpr_15 -> "-"_29	MultExpr (* | / | %) [[-] UnaryExpr]
| UnaryExpr_15 -> UnaryExpr_30	MultExpr (* | / | %) [- [UnaryExpr]]
| UnaryExpr_15 -> "++"_31	MultExpr (* | / | %) [[++] UnaryExpr]
| UnaryExpr_15 -> UnaryExpr_32	MultExpr (* | / | %) [++ [UnaryExpr]]
| UnaryExpr_15 -> "--"_33	MultExpr (* | / | %) [[--] UnaryExpr]
| UnaryExpr_15 -> UnaryExpr_34	MultExpr (* | / | %) [-- [UnaryExpr]]
| UnaryExpr_15 -> "("_35	MultExpr (* | / | %) [[(] AddExpr )]
| UnaryExpr_15 -> AddExpr_36	MultExpr (* | / | %) [( [AddExpr] )]
| UnaryExpr_15 -> ")"_37	MultExpr (* | / | %) [( AddExpr [)]]
| Identifier_16 -> "x"_39	[x]
| Identifier_16 -> "y"_40	[y]
| Identifier_16 -> "z"_41	[z]
| DecDigits_22 -> DecDigit_42	[DecDigit]+
| UnaryExpr_28 -> Identifier_16	+ [[Identifier]]
| UnaryExpr_28 -> DecDigits_22	+ [[DecDigits]]
| UnaryExpr_28 -> "+"_27	+ [[+] UnaryExpr]
| UnaryExpr_28 -> UnaryExpr_28	+ [+ [UnaryExpr]]
| UnaryExpr_28 -> "-"_29	+ [[-] UnaryExpr]
| UnaryExpr_28 -> UnaryExpr_30	+ [- [UnaryExpr]]
| UnaryExpr_28 -> "++"_31	+ [[++] UnaryExpr]
| UnaryExpr_28 -> UnaryExpr_32	+ [++ [UnaryExpr]]
| UnaryExpr_28 -> "--"_33	+ [[--] UnaryExpr]
| UnaryExpr_28 -> UnaryExpr_34	+ [-- [UnaryExpr]]
| UnaryExpr_28 -> "("_35	+ [[(] AddExpr )]
| UnaryExpr_28 -> AddExpr_36	+ [( [AddExpr] )]
| UnaryExpr_28 -> ")"_37	+ [( AddExpr [)]]
| UnaryExpr_30 -> Identifier_16	- [[Identifier]]
| UnaryExpr_30 -> DecDigits_22	- [[DecDigits]]
| UnaryExpr_30 -> "+"_27	- [[+] UnaryExpr]
| UnaryExpr_30 -> UnaryExpr_28	- [+ [UnaryExpr]]
| UnaryExpr_30 -> "-"_29	- [[-] UnaryExpr]
| UnaryExpr_30 -> UnaryExpr_30	- [- [UnaryExpr]]
| UnaryExpr_30 -> "++"_31	- [[++] UnaryExpr]
| UnaryExpr_30 -> UnaryExpr_32	- [++ [UnaryExpr]]
| UnaryExpr_30 -> "--"_33	- [[--] UnaryExpr]
| UnaryExpr_30 -> UnaryExpr_34	- [-- [UnaryExpr]]
| UnaryExpr_30 -> "("_35	- [[(] AddExpr )]
| UnaryExpr_30 -> AddExpr_36	- [( [AddExpr] )]
| UnaryExpr_30 -> ")"_37	- [( AddExpr [)]]
| UnaryExpr_32 -> Identifier_16	++ [[Identifier]]
| UnaryExpr_32 -> DecDigits_22	++ [[DecDigits]]
| UnaryExpr_32 -> "+"_27	++ [[+] UnaryExpr]
| UnaryExpr_32 -> UnaryExpr_28	++ [+ [UnaryExpr]]
| UnaryExpr_32 -> "-"_29	++ [[-] UnaryExpr]
| UnaryExpr_32 -> UnaryExpr_30	++ [- [UnaryExpr]]
| UnaryExpr_32 -> "++"_31	++ [[++] UnaryExpr]
| UnaryExpr_32 -> UnaryExpr_32	++ [++ [UnaryExpr]]
| UnaryExpr_32 -> "--"_33	++ [[--] UnaryExpr]
| UnaryExpr_32 -> UnaryExpr_34	++ [-- [UnaryExpr]]
| UnaryExpr_32 -> "("_35	++ [[(] AddExpr )]
| UnaryExpr_32 -> AddExpr_36	++ [( [AddExpr] )]
| UnaryExpr_32 -> ")"_37	++ [( AddExpr [)]]
| UnaryExpr_34 -> Identifier_16	-- [[Identifier]]
| UnaryExpr_34 -> DecDigits_22	-- [[DecDigits]]
| UnaryExpr_34 -> "+"_27	-- [[+] UnaryExpr]
| UnaryExpr_34 -> UnaryExpr_28	-- [+ [UnaryExpr]]
| UnaryExpr_34 -> "-"_29	-- [[-] UnaryExpr]
| UnaryExpr_34 -> UnaryExpr_30	-- [- [UnaryExpr]]
| UnaryExpr_34 -> "++"_31	-- [[++] UnaryExpr]
| UnaryExpr_34 -> UnaryExpr_32	-- [++ [UnaryExpr]]
| UnaryExpr_34 -> "--"_33	-- [[--] UnaryExpr]
| UnaryExpr_34 -> UnaryExpr_34	-- [-- [UnaryExpr]]
| UnaryExpr_34 -> "("_35	-- [[(] AddExpr )]
| UnaryExpr_34 -> AddExpr_36	-- [( [AddExpr] )]
| UnaryExpr_34 -> ")"_37	-- [( AddExpr [)]]
| AddExpr_36 -> MultExpr_2	( [[MultExpr]] )
| AddExpr_36 -> AddExpr_5	( [[AddExpr] (+ | -) MultExpr] )
| AddExpr_36 -> MultExpr_7	( [AddExpr (+ | -) [MultExpr]] )
| AddExpr_36 -> "+"_10	( [AddExpr [+] MultExpr] )
| AddExpr_36 -> "-"_11	( [AddExpr [-] MultExpr] )
| DecDigit_42 -> "0"_44	DecDigit* [[0]] DecDigit*
| DecDigit_42 -> "1"_45	DecDigit* [[1]] DecDigit*
| DecDigit_42 -> "2"_46	DecDigit* [[2]] DecDigit*
| DecDigit_42 -> "3"_47	DecDigit* [[3]] DecDigit*
| DecDigit_42 -> "4"_48	DecDigit* [[4]] DecDigit*
| DecDigit_42 -> "5"_49	DecDigit* [[5]] DecDigit*
| DecDigit_42 -> "6"_50	DecDigit* [[6]] DecDigit*
| DecDigit_42 -> "7"_51	DecDigit* [[7]] DecDigit*
| DecDigit_42 -> "8"_52	DecDigit* [[8]] DecDigit*
| DecDigit_42 -> "9"_53	DecDigit* [[9]] DecDigit*
status: 0

=== paths-patterns-groups-quoted
$ kpath paths -k 2 --patterns --quoted tests/grammars/contexts/groups.ebnf
stdout:
| B_5 -> "b"_10	"a" [["b"]] ";"
| B_5 -> "bb"_11	"a" [["bb"]] ";"
| E_14 -> [0-9]_17	"a" "c" ("d" | E)* [[[0-9]]] ("d" | E)* ";"
| E_14 -> "e"_20	"a" "c" ("d" | E)* [["e"] "g"{2}] ("d" | E)* ";"
| E_14 -> "f"_21	"a" "c" ("d" | E)* [["f"] "g"{2}] ("d" | E)* ";"
| E_14 -> "g"_22	"a" "c" ("d" | E)* [("e" | "f") ["g"]{2}] ("d" | E)* ";"
status: 0

=== paths-patterns-json
$ kpath paths -k 1 --patterns --json tests/grammars/contexts/groups.ebnf
stdout:
| {"k": 1, "count": 12, "saturated": false, "paths": [
|   {"path": ["\"a\"_1"], "pattern": "[a] (B | c (d | E)*)? ;"},
|   {"path": ["\";\"_3"], "pattern": "a (B | c (d | E)*)? [;]"},
|   {"path": ["B_5"], "pattern": "a [B] ;"},
|   {"path": ["\"c\"_8"], "pattern": "a [c] (d | E)* ;"},
|   {"path": ["\"b\"_10"], "pattern": "b"},
|   {"path": ["\"bb\"_11"], "pattern": "bb"},
|   {"path": ["\"d\"_13"], "pattern": "a c (d | E)* [d] (d | E)* ;"},
|   {"path": ["E_14"], "pattern": "a c (d | E)* [E] (d | E)* ;"},
|   {"path": ["[0-9]_17"], "pattern": "[0-9]"},
|   {"path": ["\"e\"_20"], "pattern": "[e] g{2}"},
|   {"path": ["\"f\"_21"], "pattern": "[f] g{2}"},
|   {"path": ["\"g\"_22"], "pattern": "(e | f) [g]{2}"}
| ]}
status: 0

=== paths-patterns-quoted-alone
$ kpath paths --quoted grammars/expr.ebnf
stderr:
| kpath paths: --quoted changes how patterns are shown; add --patterns
| Try 'kpath paths --help' for more information.
status: 2

=== paths-patterns-space-literal
$ kpath paths -k 2 --patterns tests/grammars/ok/space-literal.ebnf
stdout:
| L_0 -> ""_4	[""]
| L_0 -> "a"_5	[a] " " b
| L_0 -> " "_6	a [" "] b
| L_0 -> "b"_7	a " " [b]
| L_0 -> "("_8	[(] " + " )
| L_0 -> " + "_9	( [" + "] )
| L_0 -> ")"_10	( " + " [)]
status: 0

=== paths-patterns-with-count
$ kpath paths --patterns --count grammars/expr.ebnf
stderr:
| kpath paths: --patterns goes with listing paths, not with --count
| Try 'kpath paths --help' for more information.
status: 2

=== paths-pin
$ kpath paths -k 2 --pin Identifier_16 grammars/expr.ebnf
stdout:
| Identifier_16 -> "x"_39
| Identifier_16 -> "y"_40
| Identifier_16 -> "z"_41
status: 0

=== paths-pin-count
$ kpath paths -k 2 --count --pin 'UnaryExpr_15 AddExpr_36' grammars/expr.ebnf
stdout:
| 120
status: 0

=== paths-pin-not-a-path
$ kpath paths --pin 'AddExpr_0 UnaryExpr_8' grammars/expr.ebnf
stderr:
| kpath paths: error: pin 'AddExpr_0 UnaryExpr_8' is not a path: each node must be reached from the one before through synthetic nodes only
status: 2

=== paths-start-override
$ kpath paths -k 2 --start q2 --count grammars/fsm.ebnf
stdout:
| 18
stderr:
| grammars/fsm.ebnf:14:1: warning: rule 'start' is unreachable from the start rule 'q2'
| grammars/fsm.ebnf:15:1: warning: rule 'q1' is unreachable from the start rule 'q2'
status: 0

=== usage-bad-k
$ kpath paths -k 0 grammars/expr.ebnf
stderr:
| kpath paths: -k must be a whole number from 1 to 1000, not '0'
| Try 'kpath paths --help' for more information.
status: 2

=== usage-missing-argument
$ kpath paths -k
stderr:
| kpath paths: option '-k' needs an argument (K)
| Try 'kpath paths --help' for more information.
status: 2

=== usage-unknown-option
$ kpath paths --bogus grammars/expr.ebnf
stderr:
| kpath paths: unknown option '--bogus'
| Try 'kpath paths --help' for more information.
status: 2

=== paths-skip-hidden
$ kpath paths tests/grammars/formats/EntryFirst.g4
stdout:
| stmt_2 -> "run"_6
| stmt_2 -> NAME_8
| NAME_8 -> [a-z]_12
stderr:
| tests/grammars/formats/EntryFirst.g4:8:1: warning: 2 rules are unreachable from the start rule 'stmt' (give --start to choose another); the first is here: 'prepare', 'hint'
| (6 2-paths through _skip hidden; --skip-paths shows them)
status: 0

=== paths-skip-hidden-count
$ kpath paths -k 1 --count tests/grammars/formats/EntryFirst.g4
stdout:
| 4
stderr:
| tests/grammars/formats/EntryFirst.g4:8:1: warning: 2 rules are unreachable from the start rule 'stmt' (give --start to choose another); the first is here: 'prepare', 'hint'
| (5 1-paths through _skip hidden; --skip-paths shows them)
status: 0

=== paths-skip-shown
$ kpath paths --skip-paths --count tests/grammars/formats/EntryFirst.g4
stdout:
| 9
stderr:
| tests/grammars/formats/EntryFirst.g4:8:1: warning: 2 rules are unreachable from the start rule 'stmt' (give --start to choose another); the first is here: 'prepare', 'hint'
status: 0

=== paths-skip-hidden-from-patterns
$ kpath paths --patterns tests/grammars/formats/EntryFirst.g4
stdout:
| stmt_2 -> "run"_6	[[run] NAME]
| stmt_2 -> NAME_8	[run [NAME]]
| NAME_8 -> [a-z]_12	run [[[a-z]]+]
stderr:
| tests/grammars/formats/EntryFirst.g4:8:1: warning: 2 rules are unreachable from the start rule 'stmt' (give --start to choose another); the first is here: 'prepare', 'hint'
| (6 2-paths through _skip hidden; --skip-paths shows them)
status: 0
